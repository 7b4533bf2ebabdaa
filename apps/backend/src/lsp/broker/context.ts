/** What the message routers need from the broker for one event: where effects go, settings, timing. */
import type { Outbox } from './outbox.js';
import type { ReleaseTiming } from './release.js';
import type { SettingsBook } from './settings.js';

export interface BrokerTiming extends ReleaseTiming {
  detachedDeadlineMs: number;
  requestTimeoutMs: number;
}

export interface Turn {
  out: Outbox;
  settings: SettingsBook;
  timing: BrokerTiming;
}
