/** What a session remembers of its editor across a reload: the open tabs in order and the active one. */
export interface RememberedTabs {
  paths: string[];
  active?: string;
}

const PREFIX = 'kandev.tabs.';
const MAX_TABS = 50;

function key(sessionId: string): string {
  return `${PREFIX}${sessionId}`;
}

/** The tabs a session had open in this browser; nothing (not an error) for unknown or damaged entries. */
export function recallTabs(storage: Pick<Storage, 'getItem'> | undefined, sessionId: string): RememberedTabs | undefined {
  let raw: string | null | undefined;
  try {
    raw = storage?.getItem(key(sessionId));
  } catch {
    return undefined;
  }
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as { paths?: unknown; active?: unknown };
    if (!Array.isArray(value.paths)) return undefined;
    const paths = value.paths.filter((p): p is string => typeof p === 'string' && p !== '' && !p.split('/').includes('..')).slice(0, MAX_TABS);
    const active = typeof value.active === 'string' && paths.includes(value.active) ? value.active : undefined;
    return active ? { paths, active } : { paths };
  } catch {
    return undefined;
  }
}

/** Remembers the tabs of a session; an empty set forgets it. Storage failures (quota, private mode) are ignored. */
export function rememberTabs(storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined, sessionId: string, tabs: RememberedTabs): void {
  try {
    if (tabs.paths.length === 0) storage?.removeItem(key(sessionId));
    else storage?.setItem(key(sessionId), JSON.stringify({ paths: tabs.paths.slice(0, MAX_TABS), active: tabs.active }));
  } catch {
    // best effort: a reload then starts with no tabs
  }
}

/** Forgets a session's tabs (its task was deleted). */
export function forgetTabs(storage: Pick<Storage, 'removeItem'> | undefined, sessionId: string): void {
  try {
    storage?.removeItem(key(sessionId));
  } catch {
    // nothing to do
  }
}
