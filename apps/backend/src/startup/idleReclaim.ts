/** Startup step: idle task hosts are stopped unless a live lease pins them (docs/architecture.md section 5, C07). */
import { systemClock, type Clock } from '@kandev/kit';
import type { Logger } from '../base/log.js';
import { IdleReclaimer } from '../sessions/idleReclaimer.js';
import type { SessionService } from '../sessions/sessionService.js';
import type { TaskHostPinView } from '../sessions/taskHostPins.js';

/** What idle reclaim reads: a structural part of BackendConfig (config.ts), so startup/ never imports the composition root. */
export interface IdleReclaimSettings {
  taskHostIdleMs: number;
}

export function startIdleReclaim(
  config: IdleReclaimSettings,
  sessions: SessionService,
  pins: TaskHostPinView,
  log: Logger,
  clock: Clock = systemClock,
): IdleReclaimer {
  const reclaimer = new IdleReclaimer({
    idleMs: config.taskHostIdleMs,
    clock,
    pins,
    isRunning: (id) => sessions.liveHost(id) !== undefined,
    stop: (id) => sessions.stop(id),
    log,
  });
  sessions.onRunning((id) => reclaimer.touch(id));
  sessions.onEnded((id) => reclaimer.ended(id));
  return reclaimer;
}
