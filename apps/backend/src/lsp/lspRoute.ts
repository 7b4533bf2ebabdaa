import { lspSocketSessionSegment } from '@kandev/protocol';

/** `/lsp/:sessionId?language=L[&lease=ID]`, parsed but not yet checked (admission does that). */
export interface LspRoute {
  sessionId: string;
  language: string;
  leaseHint: string | undefined;
}

const HINT = /^[A-Za-z0-9_-]{1,128}$/;

export function parseLspRoute(rawUrl: string | undefined): LspRoute | undefined {
  if (!rawUrl) return undefined;
  let url: URL;
  try {
    url = new URL(rawUrl, 'http://localhost');
  } catch {
    return undefined;
  }
  const segment = lspSocketSessionSegment(url.pathname);
  if (segment === undefined) return undefined;
  let sessionId: string;
  try {
    sessionId = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  const hint = url.searchParams.get('lease') ?? undefined;
  // A malformed hint is just no hint: it can only ever route to a lease, never grant one.
  return { sessionId, language: url.searchParams.get('language') ?? '', leaseHint: hint && HINT.test(hint) ? hint : undefined };
}
