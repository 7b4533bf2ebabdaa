import { languageForPath, type LanguageId } from '@kandev/protocol';
import type { Range, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { Emitter, toDisposable, type Disposable, type Event } from '@kandev/kit';
import type { CancellationLike } from '../jsonRpc.js';
import { EditConfirmations } from './confirmations.js';
import { HierarchyRequests, type HierarchySource } from './hierarchy.js';
import type { FileOperationParticipant } from './fileOperations.js';
import type { ApplyEditResult } from '../edits/applyResult.js';

/** One document symbol in hierarchical form, whatever shape the server answered in. */
export interface OutlineSymbol {
  name: string;
  detail?: string;
  /** LSP SymbolKind (1-based). */
  kind: number;
  deprecated?: boolean;
  range: Range;
  selectionRange: Range;
  children: OutlineSymbol[];
}

/** One workspace symbol as the Go to Symbol in Workspace picker lists it. */
export interface WorkspaceSymbolItem {
  name: string;
  kind: number;
  containerName?: string;
  /** Workspace-relative path when the symbol is inside the workspace. */
  path?: string;
  uri: string;
  range?: Range;
  /** Resolves the location range when the server answered with a URI only. */
  resolve?(): Promise<WorkspaceSymbolItem>;
}

export type DocumentSymbolSource = (path: string, token?: CancellationLike) => Promise<OutlineSymbol[] | undefined>;
export type WorkspaceSymbolSearch = (query: string, token?: CancellationLike) => Promise<WorkspaceSymbolItem[]>;
/** The text edits that format a whole document, as LSP TextEdits on its current text. */
export type DocumentFormatter = (
  path: string,
  options: { tabSize: number; insertSpaces: boolean },
) => Promise<Array<{ range: Range; newText: string }> | undefined>;

/** The outcome of applying a WorkspaceEdit: all of it, or nothing with a reason a person can read. */

/** Applies a server's WorkspaceEdit for one session (the atomic path of docs/editing.md). */
export type WorkspaceEditApplier = (
  sessionId: string,
  workspaceUri: string,
  edit: WorkspaceEdit,
  expect?: ReadonlyMap<string, number>,
) => Promise<ApplyEditResult>;

/**
 * Things the connections of a window offer beyond Monaco's own provider registry, keyed by
 * (session, language): the Outline panel, the workspace symbol picker and format-on-save look
 * them up here. Each entry is a disposable owned by the connection generation that added it.
 */
export class KeyedSources<T> {
  private readonly entries = new Map<string, Set<T>>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changed.event;

  add(sessionId: string, language: LanguageId, value: T): Disposable {
    const key = `${sessionId}\u0000${language}`;
    let set = this.entries.get(key);
    if (!set) this.entries.set(key, (set = new Set()));
    set.add(value);
    this.changed.fire();
    return toDisposable(() => {
      const current = this.entries.get(key);
      if (!current?.delete(value)) return;
      if (current.size === 0) this.entries.delete(key);
      this.changed.fire();
    });
  }

  get(sessionId: string, language: LanguageId): T[] {
    return [...(this.entries.get(`${sessionId}\u0000${language}`) ?? [])];
  }

  /** The entries for the language of a workspace path. */
  forPath(sessionId: string, path: string): T[] {
    const language = languageForPath(path);
    return language ? this.get(sessionId, language) : [];
  }

  /** Every entry of one session, across languages. */
  ofSession(sessionId: string): T[] {
    const out: T[] = [];
    for (const [key, set] of this.entries) if (key.startsWith(`${sessionId}\u0000`)) out.push(...set);
    return out;
  }
}

export class EditingRegistry {
  readonly documentSymbols = new KeyedSources<DocumentSymbolSource>();
  readonly workspaceSymbols = new KeyedSources<WorkspaceSymbolSearch>();
  readonly formatters = new KeyedSources<DocumentFormatter>();
  /** Connections that take part in file creates/renames/deletes (workspace/will*Files, did*Files). */
  readonly fileOperations = new KeyedSources<FileOperationParticipant>();
  /** Edits waiting for the person to confirm their annotated changes (`needsConfirmation`). */
  readonly confirmations = new EditConfirmations();
  /** Call and type hierarchy sources (the hierarchy panel), and the editor's requests to show one. */
  readonly hierarchies = new KeyedSources<HierarchySource>();
  readonly hierarchyRequests = new HierarchyRequests();
}
