import { type Clock, type Disposable, after, systemClock } from '@kandev/kit';
import { DEFAULT_KEEPALIVE, FrameSocket, type KeepaliveTiming, type WsLike } from '@kandev/node-transport';
import type { Logger } from '../base/log.js';

export interface BackendLinksOptions {
  /** How long this task host waits, with no backend linked, before it stops itself (0: at once). */
  graceMs: number;
  keepalive?: KeepaliveTiming;
  writeDeadlineMs: number;
  clock?: Clock;
  logger: Logger;
  /** Nobody re-adopted this task host in time: stop it (every stream closed, every tree reaped). */
  onOrphaned(): void;
}

/**
 * The backend's links to this task host: one WebSocket a backend keeps open while it owns the task
 * host, pinged like every other hop. While at least one is open the task host is owned. When the
 * last one is lost (or the backend that started it closed its stdin before linking), the grace
 * period starts; a backend that links again within it re-adopts the task host, otherwise the task
 * host stops itself and reaps every tree. No orphan outlives the grace.
 */
export class BackendLinks {
  private readonly open = new Set<FrameSocket>();
  private graceTimer: Disposable | undefined;

  constructor(private readonly options: BackendLinksOptions) {}

  get linked(): number {
    return this.open.size;
  }

  accept(ws: WsLike): void {
    const socket = new FrameSocket(ws, {
      writeDeadlineMs: this.options.writeDeadlineMs,
      keepalive: this.options.keepalive ?? DEFAULT_KEEPALIVE,
      ...(this.options.clock ? { clock: this.options.clock } : {}),
    });
    this.open.add(socket);
    this.graceTimer?.dispose();
    this.graceTimer = undefined;
    this.options.logger.log('info', 'backend_linked', { links: this.open.size });
    socket.onClose(() => {
      if (!this.open.delete(socket)) return;
      this.options.logger.log('info', 'backend_unlinked', { links: this.open.size });
      if (this.open.size === 0) this.unowned();
    });
  }

  /** Nobody owns this task host now (its starting backend's stdin closed, or the last link went). */
  unowned(): void {
    if (this.open.size > 0 || this.graceTimer) return;
    const { graceMs } = this.options;
    this.graceTimer = after(this.options.clock ?? systemClock, graceMs, () => {
      this.graceTimer = undefined;
      if (this.open.size > 0) return;
      this.options.logger.log('warn', 'orphan_grace_expired', { graceMs });
      this.options.onOrphaned();
    });
  }

  /** Drops every link (the task host is stopping). */
  closeAll(): void {
    this.graceTimer?.dispose();
    this.graceTimer = undefined;
    for (const socket of this.open) socket.terminate();
    this.open.clear();
  }
}
