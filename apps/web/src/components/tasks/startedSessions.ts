import type { Session } from '@kandev/protocol';

const KEY = 'kandev.sessions';

/**
 * Sessions this tab started, so their links show even when GET /api/tasks does not list sessions.
 * The backend's own list wins whenever it has one.
 */
export function rememberSession(taskId: string, session: Session): void {
  try {
    const all = read();
    all[taskId] = [...(all[taskId] ?? []).filter((s) => s.id !== session.id), session];
    window.sessionStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // storage unavailable: the link is simply not remembered
  }
}

export function rememberedSessions(taskId: string): Session[] {
  return read()[taskId] ?? [];
}

function read(): Record<string, Session[]> {
  try {
    const raw = window.sessionStorage.getItem(KEY);
    const value = raw ? (JSON.parse(raw) as unknown) : {};
    return typeof value === 'object' && value !== null ? (value as Record<string, Session[]>) : {};
  } catch {
    return {};
  }
}
