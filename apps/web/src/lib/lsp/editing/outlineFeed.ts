import { after, type Clock, type Disposable } from '@kandev/kit';
import { CancelSource } from '../cancellation.js';
import type { EditingRegistry, OutlineSymbol } from './registry.js';
import type * as Monaco from 'monaco-editor';

export type OutlineState = { kind: 'noFile' } | { kind: 'unavailable' } | { kind: 'loading' } | { kind: 'ready'; symbols: OutlineSymbol[] };

/** What a feed reads of its session's workspace. */
export interface OutlineWorkspace {
  readonly sessionId: string;
  modelOf(path: string): Monaco.editor.ITextModel | undefined;
}

/** Refetch this long after the last keystroke, not on every one. */
export const REFRESH_DELAY_MS = 400;

/**
 * The document symbols of one session file, shared by everything showing them (Outline panel,
 * breadcrumbs): one documentSymbol request per change, not one per view. Refetched when the text
 * changes or a connection (re)registers its source (a resumed lease, a new generation); a newer
 * fetch, or the last view going away, cancels the one in flight ($/cancelRequest).
 */
export class OutlineFeed {
  state: OutlineState = { kind: 'loading' };
  readonly listeners = new Set<(state: OutlineState) => void>();
  private timer: Disposable | undefined;
  private inflight: CancelSource | undefined;
  private readonly subscriptions: Disposable[] = [];

  constructor(
    private readonly editing: EditingRegistry,
    private readonly workspace: OutlineWorkspace,
    private readonly path: string,
    private readonly clock: Clock,
  ) {
    this.subscriptions.push(editing.documentSymbols.onDidChange(() => this.schedule(50)));
    // Typing waits for a pause; text replaced whole (a rewrite on disk followed by a clean tab, a
    // revert) has no more keystrokes coming, so the Outline asks at once and does not lag the text.
    const content = workspace.modelOf(path)?.onDidChangeContent((e) => this.schedule(e.isFlush ? 0 : REFRESH_DELAY_MS));
    if (content) this.subscriptions.push(content);
    this.schedule(0);
  }

  private set(state: OutlineState): void {
    this.state = state;
    for (const l of this.listeners) l(state);
  }

  private schedule(delay: number): void {
    this.timer?.dispose();
    this.timer = after(this.clock, delay, () => void this.fetch());
  }

  private async fetch(): Promise<void> {
    const source = this.editing.documentSymbols.forPath(this.workspace.sessionId, this.path)[0];
    this.inflight?.cancel();
    if (!source) {
      this.set({ kind: 'unavailable' });
      return;
    }
    const mine = (this.inflight = new CancelSource());
    if (this.state.kind !== 'ready') this.set({ kind: 'loading' });
    const symbols = await source(this.path, mine.token).catch(() => undefined);
    if (mine !== this.inflight || mine.token.isCancellationRequested) return;
    this.set(symbols ? { kind: 'ready', symbols } : { kind: 'unavailable' });
  }

  dispose(): void {
    this.timer?.dispose();
    this.inflight?.cancel();
    for (const s of this.subscriptions) s.dispose();
  }
}
