import type { LspStream } from './lspStream.js';

/** The live LSP streams of this agentctl, so teardown can end every one of them. */
export class StreamTable {
  private readonly streams = new Set<LspStream>();

  add(stream: LspStream): void {
    this.streams.add(stream);
    void stream.finished().finally(() => this.streams.delete(stream));
  }

  get size(): number {
    return this.streams.size;
  }

  /** Closes every stream with 1001, cancels installs and reaps every tree, concurrently. */
  async shutdownAll(): Promise<void> {
    await Promise.all([...this.streams].map((s) => s.shutdown()));
  }
}
