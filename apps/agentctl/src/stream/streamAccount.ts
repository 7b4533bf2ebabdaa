import type { RpcEnvelope, StreamDocument } from '@kandev/protocol';

/** A server's open documents are a handful; this only bounds a client that never closes any. */
const MAX_TRACKED_DOCUMENTS = 4_096;

/**
 * What a stream's server has been told, kept from the messages the backend sent it: which
 * documents are open at which version, and the highest request id used. A backend that re-adopts
 * the stream after a restart rebuilds its lease from this (it closes those documents, keeps
 * versions increasing, and numbers its requests above the old ones). Only the few document
 * notifications are decoded; every other message is seen through its envelope alone.
 */
export class StreamAccount {
  private readonly documents = new Map<string, number>();
  private maxId = 0;

  observe(envelope: RpcEnvelope, text: string): void {
    if (typeof envelope.id === 'number' && envelope.method !== undefined && envelope.id > this.maxId) this.maxId = envelope.id;
    const method = envelope.method;
    if (method !== 'textDocument/didOpen' && method !== 'textDocument/didChange' && method !== 'textDocument/didClose') return;
    const document = textDocumentOf(text);
    if (!document) return;
    if (method === 'textDocument/didClose') {
      this.documents.delete(document.uri);
      return;
    }
    if (typeof document.version !== 'number') return;
    if (!this.documents.has(document.uri) && this.documents.size >= MAX_TRACKED_DOCUMENTS) return;
    this.documents.set(document.uri, document.version);
  }

  openDocuments(): StreamDocument[] {
    return [...this.documents].map(([uri, version]) => ({ uri, version }));
  }

  get maxRequestId(): number {
    return this.maxId;
  }
}

function textDocumentOf(text: string): { uri: string; version?: unknown } | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  const doc = (message as { params?: { textDocument?: { uri?: unknown; version?: unknown } } } | null)?.params?.textDocument;
  if (!doc || typeof doc.uri !== 'string') return undefined;
  return { uri: doc.uri, version: doc.version };
}
