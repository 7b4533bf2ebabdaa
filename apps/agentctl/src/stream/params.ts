import { isLanguageId, TRUST_WORKSPACE_TOOLS_PARAM, type LanguageId } from '@kandev/protocol';
import type { Result } from '../base/result.js';

export interface StreamParams {
  language: LanguageId;
  autoInstall: boolean;
  /** From the task (the backend), never from a browser: absent or false runs the trust guards. */
  trustWorkspaceTools: boolean;
}

export type StreamParamsResult = Result<StreamParams>;

/** `?language=L&autoInstall=true|false&trustWorkspaceTools=true|false` (absent means false). */
export function parseStreamParams(search: URLSearchParams): StreamParamsResult {
  const language = search.get('language');
  if (!isLanguageId(language)) return { ok: false, error: `unknown language ${JSON.stringify((language ?? '').slice(0, 64))}` };
  const autoInstall = search.get('autoInstall');
  if (autoInstall !== null && autoInstall !== 'true' && autoInstall !== 'false') return { ok: false, error: 'autoInstall must be true or false' };
  const trust = search.get(TRUST_WORKSPACE_TOOLS_PARAM);
  if (trust !== null && trust !== 'true' && trust !== 'false') return { ok: false, error: `${TRUST_WORKSPACE_TOOLS_PARAM} must be true or false` };
  return { ok: true, value: { language, autoInstall: autoInstall === 'true', trustWorkspaceTools: trust === 'true' } };
}
