/** Fakes for unit tests of the LSP layer: a socket, a clock, and editor documents. No Monaco, no DOM. */
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol';
import { Emitter } from '@kandev/kit';
import type { OpenDocumentSource, SyncedDocument } from '../documentSync.js';
import type { SocketLike } from '../socket.js';

export class FakeSocket implements SocketLike {
  readonly sent: Array<Record<string, unknown>> = [];
  closedWith: number | undefined;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    if (this.closedWith !== undefined) throw new Error('socket closed');
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }

  close(code?: number): void {
    this.closedWith ??= code ?? 1005;
  }

  /** Server side: the socket opened. */
  open(): void {
    this.onopen?.({});
  }

  /** Server side: one frame arrives. */
  receive(frame: unknown): void {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }

  /** Server side: the connection closed with a code. */
  serverClose(code: number): void {
    this.onclose?.({ code });
  }

  /** JSON-RPC messages sent with a method. */
  methods(): string[] {
    return this.sent.filter((m) => typeof m.method === 'string').map((m) => m.method as string);
  }

  lastRequest(method: string): Record<string, unknown> | undefined {
    return [...this.sent].reverse().find((m) => m.method === method);
  }

  controls(): unknown[] {
    return this.sent.filter((m) => 'control' in m);
  }
}

export class FakeDocument implements SyncedDocument {
  private text: string;
  private version = 1;
  private readonly changes = new Emitter<TextDocumentContentChangeEvent[]>();
  readonly onDidChangeContent = this.changes.event;

  constructor(
    readonly path: string,
    readonly languageId: string,
    text: string,
  ) {
    this.text = text;
  }

  getText(): string {
    return this.text;
  }

  getVersion(): number {
    return this.version;
  }

  /** Replaces the whole text, reporting it as one incremental change of line 0. */
  type(newText: string): void {
    const change: TextDocumentContentChangeEvent = {
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: this.text.length } },
      rangeLength: this.text.length,
      text: newText,
    };
    this.text = newText;
    this.version++;
    this.changes.fire([change]);
  }
}

export class FakeDocuments implements OpenDocumentSource {
  private readonly open = new Map<string, FakeDocument>();
  private readonly opened = new Emitter<SyncedDocument>();
  private readonly closed = new Emitter<SyncedDocument>();
  private readonly saved = new Emitter<{ document: SyncedDocument; text: string }>();
  readonly onDidOpen = this.opened.event;
  readonly onDidClose = this.closed.event;
  readonly onDidSave = this.saved.event;

  documents(): SyncedDocument[] {
    return [...this.open.values()];
  }

  add(path: string, text: string, languageId = 'typescript'): FakeDocument {
    const doc = new FakeDocument(path, languageId, text);
    this.open.set(path, doc);
    this.opened.fire(doc);
    return doc;
  }

  remove(path: string): void {
    const doc = this.open.get(path);
    if (!doc) return;
    this.open.delete(path);
    this.closed.fire(doc);
  }

  save(path: string, text: string): void {
    const doc = this.open.get(path);
    if (doc) this.saved.fire({ document: doc, text });
  }
}

/** Lets pending promise callbacks run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}
