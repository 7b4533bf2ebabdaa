import type { LiveStreamAccount } from '@kandev/protocol';
import type { LspStream } from './lspStream.js';

/** The live LSP streams of this agentctl, by id, so teardown can end every one and a new backend can resume them. */
export class StreamTable {
  private readonly streams = new Map<number, LspStream>();

  add(stream: LspStream): void {
    this.streams.set(stream.streamId, stream);
    void stream.finished().finally(() => this.streams.delete(stream.streamId));
  }

  get size(): number {
    return this.streams.size;
  }

  get(streamId: number): LspStream | undefined {
    return this.streams.get(streamId);
  }

  /** The account of every stream whose server runs (what a re-adopting backend rebuilds leases from). */
  accounts(): LiveStreamAccount[] {
    return [...this.streams.values()].flatMap((s) => {
      const account = s.liveAccount();
      return account ? [account] : [];
    });
  }

  /** Closes every stream with 1001, cancels installs and reaps every tree, concurrently. */
  async shutdownAll(): Promise<void> {
    await Promise.all([...this.streams.values()].map((s) => s.shutdown()));
  }
}
