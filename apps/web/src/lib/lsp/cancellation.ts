import { Emitter } from '@kandev/kit';
import type { CancellationLike } from './jsonRpc.js';

/** A token this client can cancel: a superseded pull sends `$/cancelRequest`. */
export class CancelSource {
  private readonly emitter = new Emitter<void>();
  private cancelled = false;
  readonly token: CancellationLike;

  constructor() {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the token reads this source's state
    const source = this;
    this.token = {
      get isCancellationRequested() {
        return source.cancelled;
      },
      onCancellationRequested: (listener) => source.emitter.event(listener),
    };
  }

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.emitter.fire();
    this.emitter.dispose();
  }
}
