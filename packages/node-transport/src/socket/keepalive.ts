import { type Clock, type Disposable, systemClock } from '@kandev/kit';
import { WS_PING_INTERVAL_MS, WS_PING_MAX_MISSES } from '@kandev/protocol';

/** How often a hop pings and how many unanswered pings in a row mean a dead peer. */
export interface KeepaliveTiming {
  intervalMs: number;
  maxMisses: number;
}

export const DEFAULT_KEEPALIVE: KeepaliveTiming = { intervalMs: WS_PING_INTERVAL_MS, maxMisses: WS_PING_MAX_MISSES };

export interface KeepaliveHooks {
  ping(): void;
  /** False while we ourselves stopped reading the peer: its pongs cannot reach us then. */
  canJudge(): boolean;
  dead(): void;
}

/**
 * Pings a WebSocket peer on a fixed interval of `clock`. Anything heard from the peer (a pong, a
 * ping of its own or any frame) proves it alive; `maxMisses` ticks in a row without a sound mean it is dead (a frozen
 * tab, a stopped agentctl, a hung backend, a half-open connection): `dead` is called once and
 * pinging stops. Disposing stops it too.
 */
export class Keepalive implements Disposable {
  private misses = 0;
  private answered = true;
  private readonly ticking: Disposable;
  private stopped = false;

  constructor(
    private readonly timing: KeepaliveTiming,
    private readonly hooks: KeepaliveHooks,
    clock: Clock = systemClock,
  ) {
    this.ticking = clock.every(timing.intervalMs, () => this.tick());
  }

  heard(): void {
    this.answered = true;
    this.misses = 0;
  }

  dispose(): void {
    this.stopped = true;
    this.ticking.dispose();
  }

  private tick(): void {
    if (this.stopped) return;
    if (!this.hooks.canJudge()) {
      // We stopped reading the peer, so its pongs wait unread: no judging. The ping still goes
      // out: it tells the peer that we are alive, only slow (its socket hears our pings).
      this.heard();
      this.ping();
      return;
    }
    if (!this.answered && ++this.misses >= this.timing.maxMisses) {
      this.dispose();
      this.hooks.dead();
      return;
    }
    this.answered = false;
    this.ping();
  }

  private ping(): void {
    try {
      this.hooks.ping();
    } catch {
      // A socket that cannot even take a ping is closing; its close event ends everything.
    }
  }
}
