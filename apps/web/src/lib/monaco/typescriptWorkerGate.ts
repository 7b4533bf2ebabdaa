import type { Disposable } from '@kandev/kit';
import type { LspState } from '../lsp/status.js';

/**
 * Monaco's TypeScript worker is 7 MB. It is created only once a built-in TypeScript feature is
 * really needed: a built-in provider answers for a model no connection owns, or an editor shows a
 * TypeScript/JavaScript file whose language server is not on its way (auto-start off, stopped,
 * unavailable, failed). While a connection owns the models (or is starting to), Monaco's requests
 * to the worker simply wait; a page where that never changes never downloads it.
 */
export class WorkerGate {
  private resolveOpen!: () => void;
  private readonly opened = new Promise<void>((resolve) => (this.resolveOpen = resolve));
  private reasonValue: string | undefined;

  whenOpen(): Promise<void> {
    return this.opened;
  }

  /** Once open, open for good: a worker that exists is kept. */
  open(reason: string): void {
    if (this.reasonValue !== undefined) return;
    this.reasonValue = reason;
    this.resolveOpen();
  }

  get isOpen(): boolean {
    return this.reasonValue !== undefined;
  }

  /** Why it opened (a test hook), undefined while closed. */
  get reason(): string | undefined {
    return this.reasonValue;
  }
}

/** States in which a connection owns (or is about to own) its models' features. */
// A detached connection keeps its claim: its server is warm and reattaches when its session shows again.
const OWNING_STATES: ReadonlySet<LspState> = new Set<LspState>(['connecting', 'installing', 'starting', 'ready', 'reconnecting', 'detached']);

/** Does an editor of a TypeScript/JavaScript file need the built-ins, given its connection's state? */
export function builtinsNeeded(state: LspState): boolean {
  return !OWNING_STATES.has(state);
}

interface StatusSource {
  getStatus(): { state: LspState };
  onDidChangeStatus(listener: () => void): Disposable;
}

/**
 * Watches the connection of a shown TypeScript editor after its auto-start decision: the moment
 * its server is not owning the models, the built-ins (and so the worker) are needed.
 */
export function watchBuiltinDemand(connection: StatusSource, gate: WorkerGate): Disposable {
  const check = () => {
    if (builtinsNeeded(connection.getStatus().state)) gate.open(`connection ${connection.getStatus().state}`);
  };
  check();
  if (gate.isOpen) return { dispose: () => undefined };
  const subscription = connection.onDidChangeStatus(check);
  return { dispose: () => subscription.dispose() };
}
