/**
 * Text-document synchronization across attachments.
 *
 * `DocumentVersions` lives as long as the lease: every browser `didOpen`/`didChange` is rewritten
 * with the next server-facing version of its URI, so the server sees strictly increasing versions
 * per URI even though each new browser generation restarts its own numbering.
 *
 * `DocumentSync` lives as long as one attachment: which URIs it has open (browser version <->
 * server version), and which `publishDiagnostics` may reach it. A publication qualifies when:
 *   1. its URI is open in this attachment (so it arrived after this generation's `didOpen`);
 *   2. if it carries a `version`, that version equals the URI's current server-facing version
 *      (it is then rewritten to the browser's own version number);
 *   3. for a resumed attachment, `synchronized` has been sent: until then the latest qualifying
 *      publication per URI is held, and re-checked against 1 and 2 when it is flushed.
 *
 * Unversioned publications (typescript-language-server sends no `version`) cannot be matched to
 * contents. They qualify on rule 1 alone: on detach the broker sends `didClose` for every open
 * document and forgets all diagnostics, and the server reads its stdin in order, so anything it
 * publishes for a URI after reading the reopening `didOpen` describes the reopened contents; the
 * unsaved buffer's diagnostics are never replayed by the broker (C03). What remains is a
 * publication the server wrote before it read the detach's `didClose` and that is still in transit
 * when the browser has already reattached and reopened the file: a window of one pipe transit
 * against a reconnect plus a `ready` round trip, which the broker accepts and documents.
 */
import { canonicalFileUri, isRecord } from '@kandev/protocol';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { utf8Length } from './jsonrpc.js';

/** One spelling per file, so `file:///C%3A/x` and `file:///c:/x` are one document. */
export function uriKey(uri: string): string {
  try {
    return canonicalFileUri(uri);
  } catch {
    return uri;
  }
}

export class DocumentVersions {
  private readonly last = new Map<string, number>();
  private keyBytes = 0;

  next(key: string): number {
    const previous = this.last.get(key);
    if (previous === undefined) this.keyBytes += utf8Length(key) + 16;
    const version = (previous ?? 0) + 1;
    this.last.set(key, version);
    return version;
  }

  current(key: string): number | undefined {
    return this.last.get(key);
  }

  /** A re-adopted lease's server last saw `version` for this URI: the next one goes above it. */
  restore(key: string, version: number): void {
    const previous = this.last.get(key);
    if (previous === undefined) this.keyBytes += utf8Length(key) + 16;
    this.last.set(key, Math.max(previous ?? 0, Math.max(0, Math.floor(version))));
  }

  /** Retained bytes (URI keys plus a fixed cost per entry). */
  get retainedBytes(): number {
    return this.keyBytes;
  }
}

interface OpenDocument {
  uri: string;
  browserVersion: number;
  serverVersion: number;
}

export type DiagnosticsVerdict =
  { verdict: 'forward'; params: PublishDiagnosticsParams } | { verdict: 'hold' } | { verdict: 'drop'; why: 'malformed' | 'not_open' | 'stale_version' };

type TextDocumentParams = Record<string, unknown> & { textDocument: Record<string, unknown> & { uri: string } };

function textDocumentParams(params: unknown): TextDocumentParams | undefined {
  if (!isRecord(params) || !isRecord(params.textDocument) || typeof params.textDocument.uri !== 'string') return undefined;
  return params as TextDocumentParams;
}

export class DocumentSync {
  private readonly open = new Map<string, OpenDocument>();
  private readonly held = new Map<string, PublishDiagnosticsParams>();
  private synchronizedSent = false;

  /**
   * @param versions the lease's server-facing versions
   * @param gated true for a resumed attachment: diagnostics wait for `synchronized`
   */
  constructor(
    private readonly versions: DocumentVersions,
    readonly gated: boolean,
  ) {}

  get synchronized(): boolean {
    return this.synchronizedSent;
  }

  /** `textDocument/didOpen` params rewritten for the server, or undefined when malformed. */
  didOpen(params: unknown): TextDocumentParams | undefined {
    const p = textDocumentParams(params);
    if (!p || typeof p.textDocument.version !== 'number') return undefined;
    const key = uriKey(p.textDocument.uri);
    const serverVersion = this.versions.next(key);
    this.open.set(key, { uri: p.textDocument.uri, browserVersion: p.textDocument.version, serverVersion });
    this.held.delete(key);
    return { ...p, textDocument: { ...p.textDocument, version: serverVersion } };
  }

  /** `textDocument/didChange` params rewritten, or undefined when the URI is not open here. */
  didChange(params: unknown): TextDocumentParams | undefined {
    const p = textDocumentParams(params);
    if (!p || typeof p.textDocument.version !== 'number') return undefined;
    const key = uriKey(p.textDocument.uri);
    const doc = this.open.get(key);
    if (!doc) return undefined;
    doc.serverVersion = this.versions.next(key);
    doc.browserVersion = p.textDocument.version;
    return { ...p, textDocument: { ...p.textDocument, version: doc.serverVersion } };
  }

  /** `textDocument/didClose`: true when the URI was open here (then it is forwarded). */
  didClose(params: unknown): boolean {
    const p = textDocumentParams(params);
    if (!p) return false;
    const key = uriKey(p.textDocument.uri);
    this.held.delete(key);
    return this.open.delete(key);
  }

  isOpen(uri: string): boolean {
    return this.open.has(uriKey(uri));
  }

  get openCount(): number {
    return this.open.size;
  }

  /** Detach: the URIs to send `didClose` for; everything this attachment knew is forgotten. */
  closeAll(): string[] {
    const uris = [...this.open.values()].map((d) => d.uri);
    this.open.clear();
    this.held.clear();
    return uris;
  }

  /** Decides one server `publishDiagnostics` for this attachment. */
  diagnostics(params: unknown): DiagnosticsVerdict {
    if (!isRecord(params) || typeof params.uri !== 'string' || !Array.isArray(params.diagnostics)) {
      return { verdict: 'drop', why: 'malformed' };
    }
    const publication = params as unknown as PublishDiagnosticsParams;
    const key = uriKey(publication.uri);
    const doc = this.open.get(key);
    if (!doc) return { verdict: 'drop', why: 'not_open' };
    const version = params.version;
    const versioned = typeof version === 'number';
    if (versioned && version !== doc.serverVersion) return { verdict: 'drop', why: 'stale_version' };
    if (this.gated && !this.synchronizedSent) {
      this.held.set(key, publication);
      return { verdict: 'hold' };
    }
    return { verdict: 'forward', params: versioned ? { ...publication, version: doc.browserVersion } : publication };
  }

  /** `synchronized` goes out now: flush held publications that still qualify. */
  synchronize(): PublishDiagnosticsParams[] {
    this.synchronizedSent = true;
    const held = [...this.held.values()];
    this.held.clear();
    const out: PublishDiagnosticsParams[] = [];
    for (const publication of held) {
      const verdict = this.diagnostics(publication);
      if (verdict.verdict === 'forward') out.push(verdict.params);
    }
    return out;
  }
}
