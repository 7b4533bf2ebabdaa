import { SESSION_EVENTS_ROUTE } from '@kandev/protocol';

/** `/api/sessions/:id/events` as a pattern (built from the protocol's route, never spelled here). */
const PATTERN = new RegExp(`^${SESSION_EVENTS_ROUTE.replace(':id', '([^/]+)')}$`);

/** The session id of an events-stream upgrade URL, or undefined when the URL is another route. */
export function parseEventsRoute(rawUrl: string | undefined): string | undefined {
  const url = new URL(rawUrl ?? '/', 'http://localhost');
  const match = PATTERN.exec(url.pathname);
  if (!match) return undefined;
  try {
    const id = decodeURIComponent(match[1] as string);
    return id === '' ? undefined : id;
  } catch {
    return undefined;
  }
}
