import { API_ROUTES } from '@kandev/protocol';
import type { Router } from '../router.js';
import { errorReply, readJsonBody } from '../http.js';
import type { ApiDeps } from './deps.js';

/** User settings: GET the whole object, PUT any subset of fields (validated by the protocol). */
export function addSettingsRoutes(router: Router, deps: ApiDeps): void {
  router.get(API_ROUTES.settings, () => ({ status: 200, json: deps.settings.get() }));
  router.put(API_ROUTES.settings, async ({ req }) => {
    const body = await readJsonBody(req);
    if (!body.ok) return errorReply(body.error);
    const updated = deps.settings.update(body.value.value);
    return updated.ok ? { status: 200, json: updated.value } : errorReply(updated.error);
  });
}
