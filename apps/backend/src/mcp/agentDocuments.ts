import { documentLanguageId } from '@kandev/protocol';
import type { AgentLspClient } from './agentLspClient.js';
import type { TaskFiles } from './taskFiles.js';

/** At most this many documents stay open per agent lease; the least recently used is closed. */
export const MAX_AGENT_OPEN_DOCUMENTS = 64;

interface OpenDocument {
  uri: string;
  /** Our LSP version (the broker renumbers it for the server anyway). */
  version: number;
  /** agentctl's version of the disk content the server has. */
  diskVersion: string;
  text: string;
  /** The client's arrival counter when the server was last given this content. */
  sentAt: number;
}

/**
 * The documents an agent's lease has open, always the disk's content: each tool call re-reads the
 * files it touches and sends what changed (an agent never sees a person's unsaved buffer).
 */
export class AgentDocuments {
  private readonly open = new Map<string, OpenDocument>();

  constructor(
    private readonly client: AgentLspClient,
    private readonly files: TaskFiles,
  ) {
    // A restarted server has nothing open: every document is opened again on next use.
    client.restarted = () => this.open.clear();
  }

  uriOf(path: string): string {
    return `${this.client.workspaceUri}/${path.split('/').map(encodeURIComponent).join('/')}`;
  }

  textOf(path: string): string | undefined {
    return this.open.get(path)?.text;
  }

  sentAt(path: string): number | undefined {
    return this.open.get(path)?.sentAt;
  }

  paths(): string[] {
    return [...this.open.keys()];
  }

  /** Opens `path` from disk, or sends its new disk content; returns the content the server has. */
  async sync(path: string): Promise<OpenDocument> {
    const file = await this.files.read(path);
    const current = this.open.get(path);
    if (current && current.diskVersion === file.version) {
      this.open.delete(path);
      this.open.set(path, current); // most recently used last
      return current;
    }
    if (current) {
      current.version += 1;
      current.diskVersion = file.version;
      current.text = file.content;
      current.sentAt = this.client.now;
      this.client.notify('textDocument/didChange', { textDocument: { uri: current.uri, version: current.version }, contentChanges: [{ text: file.content }] });
      this.open.delete(path);
      this.open.set(path, current);
      return current;
    }
    const doc: OpenDocument = { uri: this.uriOf(path), version: 1, diskVersion: file.version, text: file.content, sentAt: this.client.now };
    this.client.notify('textDocument/didOpen', {
      textDocument: { uri: doc.uri, languageId: documentLanguageId(path) ?? 'plaintext', version: doc.version, text: doc.text },
    });
    this.open.set(path, doc);
    this.trim();
    return doc;
  }

  /** Every open document brought to the disk's content (what `diagnostics` reports on). */
  async syncAll(): Promise<void> {
    for (const path of this.paths()) {
      try {
        await this.sync(path);
      } catch {
        this.close(path); // gone from disk: the server forgets it too
      }
    }
  }

  close(path: string): void {
    const doc = this.open.get(path);
    if (!doc) return;
    this.open.delete(path);
    this.client.notify('textDocument/didClose', { textDocument: { uri: doc.uri } });
  }

  private trim(): void {
    while (this.open.size > MAX_AGENT_OPEN_DOCUMENTS) {
      const oldest = this.open.keys().next().value;
      if (oldest === undefined) return;
      this.close(oldest);
    }
  }
}
