import { after, systemClock, toDisposable, type Clock, type Disposable } from '@kandev/kit';
import type { LanguageId } from '@kandev/protocol';
import type { LspConnection } from '../lib/lsp/connection.js';
import type { LspConnectionRegistry } from '../lib/lsp/registry.js';
import type { SessionWorkspace } from '../lib/workspace/sessionWorkspace.js';

/**
 * How long a session may stay off screen before its servers are detached: long enough for a quick
 * look at another session and back (both stay attached, S30/S32/S37), short enough that browsing
 * many sessions does not hold every lease attached, where capacity could evict none of them and
 * would refuse the next editor (4005). Reattaching a detached lease costs milliseconds.
 */
export const BACKGROUND_DETACH_MS = 60_000;

export interface SessionScopeTiming {
  clock?: Clock;
  /** Read when a session goes off screen; default BACKGROUND_DETACH_MS. */
  backgroundDetachMs?: () => number;
}

/**
 * What one session holds in this window: its SessionWorkspace (tabs, models) and its LSP
 * connections, one per language. Disposing it detaches the connections (the lease hints stay, so
 * coming back reattaches) and then disposes the workspace and its models.
 */
export class SessionScope implements Disposable {
  private disposed = false;
  private views = 0;
  private pageVisible = true;
  /** The background delay ran out during this time off screen (its detach is done). */
  private backgroundSpent = false;
  private backgroundTimer: Disposable | undefined;
  private readonly clock: Clock;

  constructor(
    readonly sessionId: string,
    readonly workspace: SessionWorkspace,
    private readonly registry: LspConnectionRegistry,
    private readonly createConnection: (scope: SessionScope, language: LanguageId) => LspConnection,
    private readonly timing: SessionScopeTiming = {},
    /** Held for the scope's life and let go before its workspace (the live workspace stream). */
    private readonly held: Disposable = toDisposable(() => undefined),
  ) {
    this.clock = timing.clock ?? systemClock;
  }

  /**
   * The session is shown until the returned disposable is disposed. It is on screen while shown
   * and the page is visible. Coming on screen reattaches connections detached in the background;
   * going off screen (the last view gone, or the page hidden) detaches them once it stayed away for
   * the background delay. Models, tabs, unsaved text and lease hints stay throughout.
   */
  show(): Disposable {
    if (this.disposed) return toDisposable(() => undefined);
    const wasOnScreen = this.isOnScreen;
    this.views++;
    this.screenChanged(wasOnScreen);
    let shown = true;
    return toDisposable(() => {
      if (!shown) return;
      shown = false;
      const before = this.isOnScreen;
      this.views--;
      this.screenChanged(before);
    });
  }

  /**
   * The page was hidden (another browser tab, a minimized window) or shown again. Shown again, the
   * session on screen catches up with what changed on disk meanwhile (an agent, git, a terminal).
   */
  setPageVisible(visible: boolean): void {
    if (this.disposed || visible === this.pageVisible) return;
    const before = this.isOnScreen;
    this.pageVisible = visible;
    this.screenChanged(before);
    if (this.isOnScreen) void this.workspace.refreshFromDisk();
  }

  get isOnScreen(): boolean {
    return this.views > 0 && this.pageVisible;
  }

  private screenChanged(wasOnScreen: boolean): void {
    const onScreen = this.isOnScreen;
    if (this.disposed) return;
    // Still off screen with the delay running or already spent: it stands. (Off screen without
    // either, as a scope shown while the page is hidden, the delay starts now.)
    if (onScreen === wasOnScreen && (onScreen || this.backgroundTimer || this.backgroundSpent)) return;
    this.backgroundTimer?.dispose();
    this.backgroundTimer = undefined;
    this.backgroundSpent = false;
    if (onScreen) {
      for (const connection of this.registry.forSession(this.sessionId)) {
        if (connection.getStatus().state === 'detached') connection.start();
      }
      return;
    }
    this.backgroundTimer = after(this.clock, this.timing.backgroundDetachMs?.() ?? BACKGROUND_DETACH_MS, () => {
      this.backgroundTimer = undefined;
      this.backgroundSpent = true;
      void Promise.all(this.detachIfOffScreen()); // let go after the delay: nothing waits for the closes
    });
  }

  /** Detaches this session's servers now, if it is off screen: the closes of those it detached. */
  detachIfOffScreen(): Promise<void>[] {
    if (this.disposed || this.isOnScreen) return [];
    const closes: Promise<void>[] = [];
    for (const connection of this.registry.forSession(this.sessionId)) {
      const closed = connection.detach();
      if (closed) closes.push(closed);
    }
    return closes;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** The connection of a language, created on first use. Call it from effects and events, never during render. */
  connection(language: LanguageId): LspConnection {
    if (this.disposed) throw new Error(`session ${this.sessionId} was left`);
    return this.registry.getOrCreate(this.sessionId, language, () => this.createConnection(this, language));
  }

  /** The connection of a language if one was created. */
  existingConnection(language: LanguageId): LspConnection | undefined {
    return this.registry.get(this.sessionId, language);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.backgroundTimer?.dispose();
    this.backgroundTimer = undefined;
    // Connections first: a detach needs no didClose (the broker closes the server's documents), and
    // a disposed connection hears nothing of the workspace closing its tabs below.
    for (const connection of this.registry.forSession(this.sessionId)) this.registry.delete(this.sessionId, connection.language);
    this.held.dispose();
    this.workspace.dispose();
  }
}

/**
 * The window's session scopes by session id. A scope lives while the window may come back to its
 * session: switching to another session keeps it, so a session's models, markers and attached
 * server stay as they were (S30, S32) and nothing typed is lost. It is disposed when the session is
 * left for good (`leave`: it ended, stopped or failed) or when the window's services are disposed.
 */
export class SessionScopes implements Disposable {
  private readonly scopes = new Map<string, SessionScope>();

  constructor(private readonly create: (sessionId: string) => SessionScope) {}

  private pageVisible = true;

  /** The session's scope, created on first use. Call it from effects, never during render. */
  acquire(sessionId: string): SessionScope {
    let scope = this.scopes.get(sessionId);
    if (!scope) {
      scope = this.create(sessionId);
      scope.setPageVisible(this.pageVisible);
      this.scopes.set(sessionId, scope);
    }
    return scope;
  }

  /** The page's visibility (document.visibilityState), passed to every scope. */
  setPageVisible(visible: boolean): void {
    this.pageVisible = visible;
    for (const scope of this.scopes.values()) scope.setPageVisible(visible);
  }

  /** Whether any session of this window holds text nobody saved (leaving the page would lose it). */
  hasUnsavedChanges(): boolean {
    for (const scope of this.scopes.values()) if (scope.workspace.hasUnsavedChanges()) return true;
    return false;
  }

  get(sessionId: string): SessionScope | undefined {
    return this.scopes.get(sessionId);
  }

  /** Capacity ran out: every session off screen lets go of its servers now; settles once their sockets closed (undefined: none to let go). */
  detachOffScreen(): Promise<void> | undefined {
    const closes = [...this.scopes.values()].flatMap((scope) => scope.detachIfOffScreen());
    return closes.length ? Promise.all(closes).then(() => undefined) : undefined;
  }

  /** The session was left for good: its connections detach and its workspace is disposed. */
  leave(sessionId: string): void {
    const scope = this.scopes.get(sessionId);
    if (!scope) return;
    this.scopes.delete(sessionId);
    scope.dispose();
  }

  dispose(): void {
    for (const sessionId of [...this.scopes.keys()]) this.leave(sessionId);
  }
}
