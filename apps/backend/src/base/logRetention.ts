import { type Clock, type Disposable } from '@kandev/kit';
import { pruneOldLogs } from '@kandev/node-transport';
import type { Logger } from './log.js';

const DAY_MS = 24 * 3_600_000;

/** Per-session agentctl logs (and their rotated `.1`): the only logs that multiply with use. */
const SESSION_LOG_NAME = /^agentctl-[^/]+\.log(\.1)?$/;

/**
 * Deletes session logs nobody wrote to for `days` days, at once and then daily (0 days: keeps
 * them all). A running session writes its log, so only ended sessions' logs ever grow that old.
 */
export function keepLogsFor(logDir: string, days: number, clock: Clock, log: Logger): Disposable {
  if (days <= 0) return { dispose: () => undefined };
  const prune = (): void => {
    const removed = pruneOldLogs(logDir, SESSION_LOG_NAME, days * DAY_MS, clock.now());
    if (removed.length > 0) log.info('logs_pruned', { count: removed.length });
  };
  prune();
  return clock.every(DAY_MS, prune);
}
