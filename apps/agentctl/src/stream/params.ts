import { isLanguageId, TRUST_WORKSPACE_TOOLS_PARAM, type LanguageId } from '@kandev/protocol';

export interface StreamParams {
  language: LanguageId;
  autoInstall: boolean;
  /** From the task (the backend), never from a browser: absent or false runs the trust guards. */
  trustWorkspaceTools: boolean;
}

export type StreamParamsResult = { ok: true; params: StreamParams } | { ok: false; detail: string };

/** `?language=L&autoInstall=true|false&trustWorkspaceTools=true|false` (absent means false). */
export function parseStreamParams(search: URLSearchParams): StreamParamsResult {
  const language = search.get('language');
  if (!isLanguageId(language)) return { ok: false, detail: `unknown language ${JSON.stringify((language ?? '').slice(0, 64))}` };
  const autoInstall = search.get('autoInstall');
  if (autoInstall !== null && autoInstall !== 'true' && autoInstall !== 'false') return { ok: false, detail: 'autoInstall must be true or false' };
  const trust = search.get(TRUST_WORKSPACE_TOOLS_PARAM);
  if (trust !== null && trust !== 'true' && trust !== 'false') return { ok: false, detail: `${TRUST_WORKSPACE_TOOLS_PARAM} must be true or false` };
  return { ok: true, params: { language, autoInstall: autoInstall === 'true', trustWorkspaceTools: trust === 'true' } };
}
