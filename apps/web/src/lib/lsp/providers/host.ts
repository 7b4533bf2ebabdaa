import { documentLanguageId, languageForPath, type LanguageId } from '@kandev/protocol';
import type * as Monaco from 'monaco-editor';
import type { WorkspaceEdit } from 'vscode-languageserver-protocol';
import type { Feature, FeatureRegistration } from '../capabilities.js';
import { monacoLanguagesOf } from '../../monaco/languages.js';
import type { Disposable, Event } from '@kandev/kit';
import type { EditorPreferences } from '../editing/preferences.js';
import type { ApplyEditResult } from '../edits/applyResult.js';
import type { EditingRegistry } from '../editing/registry.js';
import { matchesDocumentSelector } from '../documentSelector.js';
import type { FeatureContext } from '../features.js';
import type { CancellationLike } from '../jsonRpc.js';
import type { RequestFailure } from '../requestFailures.js';
import type { SettledRequests } from '../settle.js';
import { parseSessionModelUri, serverFileUri, SESSION_MODEL_SCHEME } from '../uris.js';

import type { MonacoApi } from '../../monaco/monacoApi.js';
export type { MonacoApi } from '../../monaco/monacoApi.js';
export type MonacoUri = Monaco.Uri;
export type TextModel = Monaco.editor.ITextModel;

/** The server-facing identity of a model this connection may ask about. */
export interface DocumentTarget {
  path: string;
  uri: string;
}

/**
 * What a provider registration needs from its connection generation, with Monaco passed in
 * (never imported at runtime) so registrations can be exercised with fakes in Node.
 */
export interface ProviderHost {
  readonly context: FeatureContext;
  readonly languages: Pick<
    MonacoApi['languages'],
    | 'registerCompletionItemProvider'
    | 'registerHoverProvider'
    | 'registerDefinitionProvider'
    | 'registerReferenceProvider'
    | 'registerSignatureHelpProvider'
    | 'registerDocumentSemanticTokensProvider'
    | 'registerDocumentRangeSemanticTokensProvider'
    | 'registerDocumentSymbolProvider'
    | 'registerRenameProvider'
    | 'registerCodeActionProvider'
    | 'registerDocumentFormattingEditProvider'
    | 'registerDocumentRangeFormattingEditProvider'
    | 'registerOnTypeFormattingEditProvider'
    | 'registerDocumentHighlightProvider'
    | 'registerFoldingRangeProvider'
    | 'registerInlayHintsProvider'
    | 'registerImplementationProvider'
    | 'registerTypeDefinitionProvider'
    | 'registerDeclarationProvider'
    | 'registerCodeLensProvider'
    | 'registerLinkProvider'
    | 'registerColorProvider'
    | 'registerSelectionRangeProvider'
    | 'registerLinkedEditingRangeProvider'
  >;
  /** Monaco languages of this connection's models, on session-scoped URIs only. */
  readonly selector: Monaco.languages.LanguageSelector;
  /** The target of a model when this generation owns it, has it open, and the registration covers it. */
  target(model: TextModel, registration: FeatureRegistration<Feature>): DocumentTarget | undefined;
  /** The server URI of an open path this registration covers (sources that have no model at hand). */
  targetUri(path: string, registration: FeatureRegistration<Feature>): string | undefined;
  /** A server URI as a Monaco URI: the session's model URI inside the workspace, else the file URI. */
  toModelUri(fileUri: string): MonacoUri;
  /** Loads models for navigation targets so Monaco can preview and open them (bounded). */
  preload(fileUris: readonly string[]): Promise<void>;
  /**
   * Applies a server's WorkspaceEdit atomically (open models as one undo stop each, other files
   * through the files API with version checks). `expect` maps paths to the model version a
   * request was made against: a model edited since then makes the edit stale, nothing applies.
   */
  applyEdit(edit: WorkspaceEdit, expect?: ReadonlyMap<string, number>): Promise<ApplyEditResult>;
  /** A Monaco command (code actions run through one); disposed with the registration. */
  registerCommand(id: string, handler: (...args: unknown[]) => unknown): Disposable;
  /** This language's editing switches from settings (providers re-register when they change). */
  preferences(): EditorPreferences;
  /** Window-level sources for the Outline panel, workspace symbols and format on save. */
  readonly editing: EditingRegistry;
  /** Monaco's FoldingRangeKind for an LSP kind (comment, imports, region), when Monaco has one. */
  foldingKind(kind: string): Monaco.languages.FoldingRangeKind | undefined;
  /** Shows a short message to the person (an edit that could not be applied, a failed command). */
  notify(message: string): void;
  /** Localized copy for messages a provider shows (rename refused, edit not applied). */
  text(key: string, params?: Record<string, unknown>): string;
  /** A failed request's sentence in the page's language, the words its toast would use. */
  failureText(failure: RequestFailure): string;
  /** didOpen / didChange / didClose sent for a path. */
  readonly onDocumentSync: Event<DocumentSyncEvent>;
  /** The version of the session's model of an open path (what a settled answer is valid for). */
  versionOf(path: string): number | undefined;
  /** Requests the editor makes on its own wait here for the caret or the text to settle (one per generation). */
  readonly settled: SettledRequests;
  /** How long they wait: caret-driven and text-driven kinds. */
  readonly settleMs: { readonly caret: number; readonly text: number };
  /**
   * Resolves once the page is being drawn (false when `token` is cancelled first): code lenses wait
   * here, since Monaco resolves only lenses it has drawn (lib/monaco/pageDrawing.ts).
   */
  whenDrawing(token?: CancellationLike): Promise<boolean>;
  /** The server answered a word list (a completion not asked by a trigger character) after `ms`, or it was cancelled by then: quick suggestions pace by it. */
  recordWordList(model: TextModel, ms: number, cancelled: boolean): void;
  /** The server answers word lists for this session's languages until disposed (quick suggestions wait while their cost is unknown). */
  serveWordLists(): Disposable;
}

export interface DocumentSyncEvent {
  path: string;
  kind: 'open' | 'change' | 'close';
}

/** Monaco language ids that a catalog language's models use (the table lives with the Monaco setup). */
export { monacoLanguagesOf };

export function sessionSelector(language: LanguageId): Monaco.languages.LanguageFilter[] {
  return monacoLanguagesOf(language).map((id) => ({ language: id, scheme: SESSION_MODEL_SCHEME }));
}

/** The ownership test every provider runs first: a model of another session gets nothing from it. */
export function documentTarget(
  context: FeatureContext,
  model: { uri: { scheme: string; authority: string; path: string } },
  registration: FeatureRegistration<Feature>,
): DocumentTarget | undefined {
  const parsed = parseSessionModelUri(model.uri);
  if (!parsed || parsed.sessionId !== context.sessionId) return undefined;
  if (languageForPath(parsed.path) !== context.language) return undefined;
  if (!context.isOpen(parsed.path)) return undefined;
  const uri = serverFileUri(context.workspace.workspaceUri, parsed.path);
  const languageId = documentLanguageId(parsed.path) ?? context.language;
  if (!matchesDocumentSelector(registration.documentSelector, { languageId, uri })) return undefined;
  return { path: parsed.path, uri };
}
