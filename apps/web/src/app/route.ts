/** Hash routes: `#/` the task list, `#/settings`, `#/sessions/:id` a session (optionally `?file=rel&line=N&column=N`). */
export type Route = { name: 'tasks' } | { name: 'settings' } | { name: 'session'; sessionId: string; file?: string; line?: number; column?: number };

export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  const [pathPart = '', query = ''] = raw.split('?', 2);
  if (/^\/settings\/?$/.test(pathPart)) return { name: 'settings' };
  const m = /^\/sessions\/([^/]+)\/?$/.exec(pathPart);
  if (!m) return { name: 'tasks' };
  let sessionId: string;
  try {
    sessionId = decodeURIComponent(m[1] as string);
  } catch {
    return { name: 'tasks' };
  }
  const params = new URLSearchParams(query);
  const route: Route = { name: 'session', sessionId };
  const file = params.get('file');
  if (file) route.file = file;
  const line = Number(params.get('line'));
  const column = Number(params.get('column'));
  if (Number.isInteger(line) && line > 0) route.line = line;
  if (Number.isInteger(column) && column > 0) route.column = column;
  return route;
}

export function sessionHash(sessionId: string): string {
  return `#/sessions/${encodeURIComponent(sessionId)}`;
}
