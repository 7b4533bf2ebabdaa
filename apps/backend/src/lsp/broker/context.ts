/** What the message routers need from the broker for one event: where effects go, settings, timing. */
import type { Outbox } from './outbox.js';
import type { ReleaseTiming } from './release.js';
import type { SettingsBook } from './settings.js';

export interface BrokerTiming extends ReleaseTiming {
  detachedDeadlineMs: number;
  requestTimeoutMs: number;
  /** Restarts of a crashed server within SERVER_RESTART_WINDOW_MS (restart.ts). */
  restartLimit: number;
}

/** The broker's state one event is handled against: the outbox collecting its effects, settings, timing. */
export interface EventContext {
  out: Outbox;
  settings: SettingsBook;
  timing: BrokerTiming;
}
