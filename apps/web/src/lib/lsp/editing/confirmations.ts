import type { ConfirmationGroup } from '../edits/annotations.js';
import { Emitter, type Event } from '@kandev/kit';

/** A WorkspaceEdit waiting for the person to confirm its annotated changes. */
export interface PendingConfirmation {
  id: number;
  sessionId: string;
  groups: ConfirmationGroup[];
}

/**
 * Edits whose change annotations ask for confirmation (`needsConfirmation`), one dialog at a time
 * per window, oldest first. `ask` resolves true only when the person confirms; cancelling, or the
 * connection that asked ending first (`signal`), resolves false and nothing is applied.
 */
export class EditConfirmations {
  private items: PendingConfirmation[] = [];
  private readonly answers = new Map<number, (confirmed: boolean) => void>();
  private nextId = 1;
  private readonly changed = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changed.event;

  getSnapshot = (): ReadonlyArray<PendingConfirmation> => this.items;

  ask(sessionId: string, groups: ConfirmationGroup[], signal?: { onAbort(listener: () => void): void }): Promise<boolean> {
    const id = this.nextId++;
    const answer = new Promise<boolean>((resolve) => this.answers.set(id, resolve));
    this.items = [...this.items, { id, sessionId, groups }];
    this.changed.fire();
    signal?.onAbort(() => this.answer(id, false));
    return answer;
  }

  /** The person's answer (or an abort); a second answer for the same request does nothing. */
  answer(id: number, confirmed: boolean): void {
    const resolve = this.answers.get(id);
    if (!resolve) return;
    this.answers.delete(id);
    this.items = this.items.filter((p) => p.id !== id);
    this.changed.fire();
    resolve(confirmed);
  }
}
