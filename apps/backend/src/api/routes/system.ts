import { API_ROUTES, LANGUAGE_CATALOG, METRICS_PATH } from '@kandev/protocol';
import type { Router } from '../router.js';
import type { ApiDeps } from './deps.js';

/** Health, the sign-in check, the language list and metrics: read-only views of the backend itself. */
export function addSystemRoutes(router: Router, deps: ApiDeps): void {
  router.get(API_ROUTES.health, () => ({ status: 200, json: { ok: true } }));
  // The catalog cards of the Editors settings: what each language's server is, how to install it
  // and where it goes. Never filtered by the backend's own OS: the task host decides (docs/architecture.md section 6).
  // Reached only past the access gate: answering at all says the caller's sign-in is valid.
  router.get(API_ROUTES.access, () => ({ status: 200, json: { signedIn: true } }));
  router.get(API_ROUTES.languages, () => ({ status: 200, json: { languages: LANGUAGE_CATALOG } }));
  router.get(METRICS_PATH, async () => ({
    status: 200,
    contentType: deps.metrics.registry.contentType,
    body: await deps.metrics.registry.metrics(),
  }));
}
