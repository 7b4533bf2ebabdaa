import { documentLanguageId, languageForPath, type LanguageId } from '@kandev/protocol';
import type * as Monaco from 'monaco-editor';
import type { Feature, FeatureRegistration } from '../capabilities.js';
import { monacoLanguagesOf } from '../../monaco/languages.js';
import { matchesDocumentSelector } from '../documentSelector.js';
import type { FeatureContext } from '../features.js';
import { parseSessionModelUri, serverFileUri, SESSION_MODEL_SCHEME } from '../uris.js';

export type MonacoApi = typeof Monaco;
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
  >;
  /** Monaco languages of this connection's models, on session-scoped URIs only. */
  readonly selector: Monaco.languages.LanguageSelector;
  /** The target of a model when this generation owns it, has it open, and the registration covers it. */
  target(model: TextModel, registration: FeatureRegistration<Feature>): DocumentTarget | undefined;
  /** A server URI as a Monaco URI: the session's model URI inside the workspace, else the file URI. */
  toModelUri(fileUri: string): MonacoUri;
  /** Loads models for navigation targets so Monaco can preview and open them (bounded). */
  preload(fileUris: readonly string[]): Promise<void>;
}

/** Monaco language ids that a catalog language's models use (the table lives with the Monaco setup). */
export { monacoLanguagesOf };

export function sessionSelector(language: LanguageId): Monaco.languages.LanguageFilter[] {
  return monacoLanguagesOf(language).map((id) => ({ language: id, scheme: SESSION_MODEL_SCHEME }));
}

/** The ownership test every provider runs first: a model of another session gets nothing from it. */
export function documentTarget(context: FeatureContext, model: { uri: { scheme: string; authority: string; path: string } }, registration: FeatureRegistration<Feature>): DocumentTarget | undefined {
  const parsed = parseSessionModelUri(model.uri);
  if (!parsed || parsed.sessionId !== context.sessionId) return undefined;
  if (languageForPath(parsed.path) !== context.language) return undefined;
  if (!context.isOpen(parsed.path)) return undefined;
  const uri = serverFileUri(context.workspace.workspaceUri, parsed.path);
  const languageId = documentLanguageId(parsed.path) ?? context.language;
  if (!matchesDocumentSelector(registration.documentSelector, { languageId, uri })) return undefined;
  return { path: parsed.path, uri };
}
