import { isLanguageId, type LanguageId } from '@kandev/protocol';

export interface StreamParams {
  language: LanguageId;
  autoInstall: boolean;
}

export type StreamParamsResult = { ok: true; params: StreamParams } | { ok: false; detail: string };

/** `?language=L&autoInstall=true|false` (autoInstall absent means false). */
export function parseStreamParams(search: URLSearchParams): StreamParamsResult {
  const language = search.get('language');
  if (!isLanguageId(language)) return { ok: false, detail: `unknown language ${JSON.stringify((language ?? '').slice(0, 64))}` };
  const autoInstall = search.get('autoInstall');
  if (autoInstall !== null && autoInstall !== 'true' && autoInstall !== 'false') return { ok: false, detail: 'autoInstall must be true or false' };
  return { ok: true, params: { language, autoInstall: autoInstall === 'true' } };
}
