import { Emitter, type Event } from '@kandev/kit';

/** Short messages from editing features (an edit not applied, a failed command), newest last. */
export class EditingNotices {
  private items: Array<{ id: number; text: string }> = [];
  private nextId = 1;
  private readonly changed = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changed.event;

  getSnapshot = (): ReadonlyArray<{ id: number; text: string }> => this.items;

  show(text: string): void {
    this.items = [...this.items.slice(-2), { id: this.nextId++, text }];
    this.changed.fire();
  }

  dismiss(id: number): void {
    this.items = this.items.filter((n) => n.id !== id);
    this.changed.fire();
  }
}
