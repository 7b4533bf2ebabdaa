import { LANGUAGE_FILES } from '@kandev/protocol';
import type { Router } from '../router.js';
import type { ApiDeps } from './deps.js';

export interface LanguageSummary {
  id: string;
  extensions: string[];
}

/** Health, the language list and metrics: read-only views of the backend itself. */
export function addSystemRoutes(router: Router, deps: ApiDeps): void {
  router.get('/api/health', () => ({ status: 200, json: { ok: true } }));
  // Static for now (ids and extensions from the protocol); the catalog cards come from agentctl later.
  const languages: LanguageSummary[] = LANGUAGE_FILES.map(({ id, extensions }) => ({ id, extensions: [...extensions] }));
  router.get('/api/languages', () => ({ status: 200, json: { languages } }));
  router.get('/metrics', () => ({
    status: 200,
    contentType: 'text/plain; version=0.0.4; charset=utf-8',
    body: deps.metrics.registry.render(),
  }));
}
