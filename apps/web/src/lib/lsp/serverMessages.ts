import { after, Emitter, type Clock, type Disposable, type Event } from '@kandev/kit';
import type { LanguageId } from '@kandev/protocol';
import { sameFailure, type RequestFailure } from './requestFailures.js';

/** LSP MessageType by name (1 error, 2 warning, 3 info, 4 log; 5 debug shown as log). */
export type MessageSeverity = 'error' | 'warning' | 'info' | 'log';

export function severityOf(type: unknown): MessageSeverity {
  switch (type) {
    case 1:
      return 'error';
    case 2:
      return 'warning';
    case 3:
      return 'info';
    default:
      return 'log';
  }
}

export interface MessageSource {
  sessionId: string;
  language: LanguageId;
}

/**
 * One toast. `message`: a `window/showMessage` (repeats collapse into `count`); `request`: a
 * `window/showMessageRequest` with its action titles; `external`: a `window/showDocument` of an
 * http(s) URI, waiting for the person to agree before it opens; `failure`: a request the person
 * asked for got no answer (`failure` says why; its words come from the locale catalogs).
 */
export interface ServerToast {
  id: number;
  kind: 'message' | 'request' | 'external' | 'failure';
  source: MessageSource;
  severity: MessageSeverity;
  text: string;
  count: number;
  actions: string[];
  uri?: string;
  failure?: RequestFailure;
}

/** A question on screen: its answer, or `cancel` to take it away (the server's request ended). */
export interface PendingAnswer<T> {
  answer: Promise<T>;
  cancel(): void;
}

/** Messages that are not errors go after this long; an error stays until dismissed. */
export const MESSAGE_TOAST_MS = 10_000;
/** At most this many toasts at once; the oldest plain message goes first. */
export const MAX_TOASTS = 5;

interface Entry {
  toast: ServerToast;
  timer?: Disposable;
  /** When the toast goes by itself (clock ms); undefined for one that stays until dismissed. */
  dueAt?: number;
  /** Held on screen (hovered or focused): its time left, which runs again once released. */
  heldLeftMs?: number;
  /** For a request or an external link: how it is answered (index of the action, or null). */
  settle?: (choice: number | null) => void;
}

/** The window's toasts of what servers say (docs/editing.md, "What servers say"). */
export class ServerMessages implements Disposable {
  private entries: Entry[] = [];
  private snapshot: readonly ServerToast[] = [];
  private nextId = 1;
  private readonly changed = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changed.event;

  constructor(
    private readonly clock: Clock,
    private readonly toastMs = MESSAGE_TOAST_MS,
  ) {}

  getSnapshot = (): readonly ServerToast[] => this.snapshot;

  /** `window/showMessage`: a toast, or one more on the count of the same message already shown. */
  show(source: MessageSource, severity: MessageSeverity, text: string): void {
    const same = this.entries.find(
      (e) =>
        e.toast.kind === 'message' &&
        e.toast.severity === severity &&
        e.toast.text === text &&
        e.toast.source.sessionId === source.sessionId &&
        e.toast.source.language === source.language,
    );
    if (same) {
      same.toast = { ...same.toast, count: same.toast.count + 1 };
      this.arm(same);
      // The repeated message moves to the end, where the newest is.
      this.entries = [...this.entries.filter((e) => e !== same), same];
      return this.publish();
    }
    const entry: Entry = { toast: { id: this.nextId++, kind: 'message', source, severity, text, count: 1, actions: [] } };
    this.add(entry);
    this.arm(entry);
    this.publish();
  }

  /**
   * A request the person asked for got no answer. One such toast per server at most: the same
   * failure again adds to its count (and keeps it on screen longer), a different one takes its
   * place, so a server that keeps timing out never piles toasts up. It goes by itself, even an
   * error: the person can simply ask again, and nothing waits for an answer from them.
   */
  failed(source: MessageSource, failure: RequestFailure): void {
    const shown = this.entries.find((e) => e.toast.kind === 'failure' && sameSource(e.toast.source, source));
    if (shown?.toast.failure && sameFailure(shown.toast.failure, failure)) {
      shown.toast = { ...shown.toast, count: shown.toast.count + 1 };
      this.arm(shown);
      this.entries = [...this.entries.filter((e) => e !== shown), shown];
      return this.publish();
    }
    if (shown) this.remove(shown);
    const severity: MessageSeverity = failure.reason === 'error' ? 'error' : 'warning';
    const entry: Entry = { toast: { id: this.nextId++, kind: 'failure', source, severity, text: '', count: 1, actions: [], failure } };
    this.add(entry);
    this.arm(entry);
    this.publish();
  }

  /** `window/showMessageRequest`: resolves with the index of the action chosen, or null when dismissed. */
  ask(source: MessageSource, severity: MessageSeverity, text: string, actions: string[]): PendingAnswer<number | null> {
    return this.question({ kind: 'request', source, severity, text, actions });
  }

  /** An external link a server wants opened: resolves true only when the person agreed. */
  confirmExternal(source: MessageSource, uri: string): PendingAnswer<boolean> {
    const pending = this.question({ kind: 'external', source, severity: 'info', text: uri, actions: [], uri });
    return { answer: pending.answer.then((choice) => choice === 0), cancel: pending.cancel };
  }

  /** The person picked action `index` (for an external link, 0 is Open). */
  choose(id: number, index: number): void {
    this.settle(id, index);
  }

  /**
   * The person is reading the toast or reaching its buttons (pointer over it, focus within it):
   * it stays, however long that takes (WCAG 2.2.1, timing adjustable), and its time left runs on
   * from where it stopped once `held` is false again. A toast that stays anyway is unaffected.
   */
  hold(id: number, held: boolean): void {
    const entry = this.entries.find((e) => e.toast.id === id);
    if (!entry) return;
    if (held) {
      if (entry.heldLeftMs !== undefined || entry.dueAt === undefined) return;
      entry.heldLeftMs = Math.max(0, entry.dueAt - this.clock.now());
      entry.timer?.dispose();
      entry.timer = undefined;
    } else if (entry.heldLeftMs !== undefined) {
      const left = entry.heldLeftMs;
      entry.heldLeftMs = undefined;
      this.schedule(entry, left);
    }
  }

  /** The person closed the toast: a question is answered with no choice. */
  dismiss(id: number): void {
    this.settle(id, null);
  }

  dispose(): void {
    for (const entry of this.entries) {
      entry.timer?.dispose();
      entry.settle?.(null);
    }
    this.entries = [];
    this.changed.dispose();
  }

  private question(init: Omit<ServerToast, 'id' | 'count'>): PendingAnswer<number | null> {
    let resolve!: (choice: number | null) => void;
    const answer = new Promise<number | null>((r) => (resolve = r));
    const entry: Entry = { toast: { ...init, id: this.nextId++, count: 1 }, settle: resolve };
    this.add(entry);
    this.publish();
    return { answer, cancel: () => this.settle(entry.toast.id, null) };
  }

  private add(entry: Entry): void {
    this.entries.push(entry);
    while (this.entries.length > MAX_TOASTS) {
      // Questions wait for their answer; plain messages and failures make room, oldest first.
      const oldest = this.entries.find((e) => (e.toast.kind === 'message' || e.toast.kind === 'failure') && e !== entry);
      if (!oldest) break;
      this.remove(oldest);
    }
  }

  /** A new toast, or a repeat: its full time again (which waits while the toast is held). */
  private arm(entry: Entry): void {
    entry.timer?.dispose();
    entry.timer = undefined;
    entry.dueAt = undefined;
    if (entry.toast.severity === 'error' && entry.toast.kind !== 'failure') return;
    if (entry.heldLeftMs !== undefined) entry.heldLeftMs = this.toastMs;
    else this.schedule(entry, this.toastMs);
  }

  private schedule(entry: Entry, delayMs: number): void {
    entry.dueAt = this.clock.now() + delayMs;
    entry.timer = after(this.clock, delayMs, () => {
      this.remove(entry);
      this.publish();
    });
  }

  private settle(id: number, choice: number | null): void {
    const entry = this.entries.find((e) => e.toast.id === id);
    if (!entry) return;
    this.remove(entry);
    entry.settle?.(choice);
    this.publish();
  }

  private remove(entry: Entry): void {
    entry.timer?.dispose();
    this.entries = this.entries.filter((e) => e !== entry);
  }

  private publish(): void {
    this.snapshot = this.entries.map((e) => e.toast);
    this.changed.fire();
  }
}

function sameSource(a: MessageSource, b: MessageSource): boolean {
  return a.sessionId === b.sessionId && a.language === b.language;
}
