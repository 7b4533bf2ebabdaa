/**
 * The backend routes of the live workspace, as the page addresses them (relative to its origin).
 * The events stream is a WebSocket with the access rules of every other route; the HEAD text is
 * plain JSON (`{content}`, or 404 when the path is not in HEAD or the workspace has no git).
 */
export function sessionEventsPath(sessionId: string): string {
  return `/api/sessions/${encodeURIComponent(sessionId)}/events`;
}

export function sessionGitHeadPath(sessionId: string, path: string): string {
  return `/api/sessions/${encodeURIComponent(sessionId)}/git/head?${new URLSearchParams({ path }).toString()}`;
}

/** The body of `GET /api/sessions/:id/git/head?path=rel`. */
export interface GitHeadFileResponse {
  content: string;
}
