/**
 * The single `initialize` exchange of a lease. The broker owns it: the first browser's `initialize`
 * is forwarded, its result retained for every later attachment, and `initialized` reaches the
 * server exactly once.
 *
 *   none ──browser initialize──> pending ──server result──> answered
 *     ^                              │
 *     └──────── server error ────────┘   (the server may be asked again by the next initialize)
 *
 * A browser that reconnects while the exchange is pending got `ready{resumed:false}` and sends its
 * own `initialize`: it is not forwarded; it becomes the *waiter* and is answered, under its own id,
 * with the one result the server gives. When the result arrives and nobody waits (the asker
 * detached), or the waiter detaches before sending `initialized`, the broker sends `initialized`
 * itself so the server goes on analysing while no browser is attached.
 */
import type { JsonRpcId } from './types.js';

export interface InitializeWaiter {
  generation: number;
  browserId: JsonRpcId;
}

export type InitializeState =
  | { kind: 'none' }
  | { kind: 'pending'; serverId: number; waiter?: InitializeWaiter }
  | { kind: 'answered'; result: unknown; waiter?: InitializeWaiter; initializedSent: boolean };

export type BrowserInitializeOutcome =
  /** Forward to the server under `serverId`. */
  | { action: 'forward'; serverId: number }
  /** Joined the pending exchange; answered when the server answers. */
  | { action: 'wait' }
  /** Already answered: reply with the retained result, nothing reaches the server. */
  | { action: 'reply'; result: unknown }
  /** This generation already has an initialize in flight. */
  | { action: 'reject'; message: string };

export type ServerInitializeOutcome =
  | { handled: false }
  | {
      handled: true;
      /** Who gets the server's answer (under its own id), if anyone still waits. */
      waiter?: InitializeWaiter;
      ok: boolean;
      /** The broker sends `initialized` now (no browser will). */
      sendInitialized: boolean;
    };

export class InitializeExchange {
  state: InitializeState = { kind: 'none' };
  /** `workspaceFolders` of the forwarded params, to answer `workspace/workspaceFolders`. */
  workspaceFolders: unknown = null;
  /** The forwarded params, so a restarted server is initialized as its predecessor was. */
  params: unknown = undefined;

  /**
   * A fresh exchange for a restarted server, sent by the broker itself under `serverId` with the
   * params the browser once gave (no browser waits: it resumes from the result).
   */
  static replay(previous: InitializeExchange, serverId: number): InitializeExchange {
    const next = new InitializeExchange();
    next.params = previous.params;
    next.workspaceFolders = previous.workspaceFolders;
    next.state = { kind: 'pending', serverId };
    return next;
  }

  /** The exchange a previous backend completed with this very server (a lease re-adopted after a restart). */
  static completed(params: unknown, result: unknown): InitializeExchange {
    const done = new InitializeExchange();
    done.params = params;
    const folders = (params as { workspaceFolders?: unknown } | null | undefined)?.workspaceFolders;
    done.workspaceFolders = folders ?? null;
    done.state = { kind: 'answered', result, initializedSent: true };
    return done;
  }

  /** True once an `initialize` reached the server (other traffic may flow). */
  get forwarded(): boolean {
    return this.state.kind !== 'none';
  }

  get answered(): boolean {
    return this.state.kind === 'answered';
  }

  get initializedSent(): boolean {
    return this.state.kind === 'answered' && this.state.initializedSent;
  }

  get result(): unknown {
    return this.state.kind === 'answered' ? this.state.result : undefined;
  }

  onBrowserInitialize(generation: number, browserId: JsonRpcId, params: unknown, allocServerId: () => number): BrowserInitializeOutcome {
    const state = this.state;
    switch (state.kind) {
      case 'none': {
        const serverId = allocServerId();
        this.state = { kind: 'pending', serverId, waiter: { generation, browserId } };
        this.params = params;
        const folders = (params as { workspaceFolders?: unknown } | null | undefined)?.workspaceFolders;
        this.workspaceFolders = folders ?? null;
        return { action: 'forward', serverId };
      }
      case 'pending':
        if (state.waiter && state.waiter.generation === generation) {
          return { action: 'reject', message: 'initialize is already in progress' };
        }
        state.waiter = { generation, browserId };
        return { action: 'wait' };
      case 'answered':
        return { action: 'reply', result: state.result };
    }
  }

  /** A server response: ours when it answers the pending `initialize`. */
  onServerResponse(serverId: number, ok: boolean, result: unknown): ServerInitializeOutcome {
    const state = this.state;
    if (state.kind !== 'pending' || state.serverId !== serverId) return { handled: false };
    const waiter = state.waiter;
    if (!ok) {
      this.state = { kind: 'none' };
      return { handled: true, waiter, ok: false, sendInitialized: false };
    }
    const sendInitialized = waiter === undefined;
    this.state = { kind: 'answered', result, waiter, initializedSent: sendInitialized };
    return { handled: true, waiter, ok: true, sendInitialized };
  }

  /** A browser `initialized`: true when it is the one to forward. */
  onBrowserInitialized(): boolean {
    const state = this.state;
    if (state.kind !== 'answered' || state.initializedSent) return false;
    state.initializedSent = true;
    state.waiter = undefined;
    return true;
  }

  /** The generation ended: forget it as a waiter; send `initialized` if it owed one. */
  onDetach(generation: number): { sendInitialized: boolean } {
    const state = this.state;
    if (state.kind === 'pending' && state.waiter?.generation === generation) state.waiter = undefined;
    if (state.kind === 'answered' && !state.initializedSent) {
      state.initializedSent = true;
      state.waiter = undefined;
      return { sendInitialized: true };
    }
    return { sendInitialized: false };
  }
}
