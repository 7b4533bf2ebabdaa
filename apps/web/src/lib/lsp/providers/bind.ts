import type { LanguageId } from '@kandev/protocol';
import type * as Monaco from 'monaco-editor';
import type { ApplyWorkspaceEditParams, ApplyWorkspaceEditResult, Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { SUPPRESSIBLE_FEATURES, type BuiltinSuppression, type SuppressibleFeature } from '../builtins.js';
import type { Feature, FeatureRegistration } from '../capabilities.js';
import { DisposableStore, toDisposable, type Disposable, type Event } from '@kandev/kit';
import { DEFAULT_PREFERENCES, type EditorPreferences } from '../editing/preferences.js';
import { EditingRegistry, type WorkspaceEditApplier } from '../editing/registry.js';
import { applyEditWithParticipants } from '../editing/applyFlow.js';
import { fileOperationParticipant } from '../editing/fileOperations.js';
import { registerCodeActionProvider } from './codeActions.js';
import { registerDocumentSymbolProvider } from './documentSymbols.js';
import { registerFormattingProvider, registerOnTypeFormattingProvider, registerRangeFormattingProvider } from './formatting.js';
import { registerDocumentHighlightProvider, registerFoldingRangeProvider } from './highlights.js';
import { registerInlayHintsProvider } from './inlayHints.js';
import { registerCodeLensProvider } from './codeLens.js';
import { registerDocumentLinkProvider } from './documentLinks.js';
import { registerColorProvider } from './colors.js';
import { registerSelectionRangeProvider } from './selectionRanges.js';
import { registerLinkedEditingRangeProvider } from './linkedEditing.js';
import { PullDiagnostics } from './pullDiagnostics.js';
import { DiagnosticSet } from './diagnosticSet.js';
import { registerRenameProvider } from './rename.js';
import { registerWorkspaceSymbols } from './workspaceSymbols.js';
import type { RequestFailure } from '../requestFailures.js';
import type { CancellationLike } from '../jsonRpc.js';
import type { FeatureBinder, FeatureBinding, FeatureContext } from '../features.js';
import { serverFileUri, sessionModelUriParts, workspaceRelativePath } from '../uris.js';
import { matchesDocumentSelector } from '../documentSelector.js';
import { documentLanguageId } from '@kandev/protocol';
import { registerCompletionProvider } from './completion.js';
import { toMarkerData } from './diagnostics.js';
import { documentTarget, sessionSelector, type MonacoApi, type MonacoUri, type ProviderHost } from './host.js';
import { registerHoverProvider } from './hover.js';
import { registerDefinitionProvider, registerReferenceProvider } from './locations.js';
import { registerSemanticTokensProvider } from './semanticTokens.js';
import { registerSignatureHelpProvider } from './signatureHelp.js';
import { registerDeclarationProvider, registerImplementationProvider, registerTypeDefinitionProvider } from './navigation.js';
import { registerCallHierarchy, registerTypeHierarchy } from './hierarchies.js';
import { SETTLE_MS, SettledRequests, settlePrefix } from '../settle.js';
import type { QuickSuggestPacing } from '../../monaco/quickSuggestPacing.js';

export interface BinderDeps {
  monaco: MonacoApi;
  suppression: BuiltinSuppression;
  /** A reference to the session's model of a path, loading it when needed (navigation targets). */
  acquireModel(sessionId: string, path: string): Promise<Disposable | undefined>;
  /** At most this many target files are loaded per navigation result. */
  maxPreload?: number;
  /** Applies WorkspaceEdits atomically for a session (rename, code actions, workspace/applyEdit). */
  applyWorkspaceEdit?: WorkspaceEditApplier;
  /** Window-level sources (Outline, workspace symbols, format on save). */
  editing?: EditingRegistry;
  /** A language's editing switches, and when they change (providers re-register). */
  preferences?: { get(language: LanguageId): EditorPreferences; onDidChange: Event<void> };
  /** Localized copy (`editing` namespace). */
  text?: (key: string, params?: Record<string, unknown>) => string;
  /** Shows a short message to the person. */
  notify?: (message: string) => void;
  /** A failed request's sentence in the page's language, as its toast says it (requestFailureText). */
  failureText?: (failure: RequestFailure, language: LanguageId) => string;
  /** How long requests the editor makes on its own wait for the caret or text to settle (default SETTLE_MS). */
  settleMs?: { caret: number; text: number };
  /** Resolves once the page is being drawn (default: at once); see ProviderHost.whenDrawing. */
  whenDrawing?: (token?: CancellationLike) => Promise<boolean>;
  /** The window's quick-suggestions pacing (word-list answer times per model). */
  quickSuggest?: Pick<QuickSuggestPacing, 'recordList' | 'serveLists'>;
}

/** Features bound as Monaco providers; pull diagnostics follow their registrations on their own (PullDiagnostics). */
type ProvidedFeature = Exclude<Feature, 'diagnostic'>;

const REGISTER: { [F in ProvidedFeature]: (host: ProviderHost, registration: FeatureRegistration<F>) => Disposable } = {
  completion: registerCompletionProvider,
  hover: registerHoverProvider,
  definition: registerDefinitionProvider,
  references: registerReferenceProvider,
  signatureHelp: registerSignatureHelpProvider,
  semanticTokens: registerSemanticTokensProvider,
  documentSymbol: registerDocumentSymbolProvider,
  workspaceSymbol: registerWorkspaceSymbols,
  rename: registerRenameProvider,
  codeAction: registerCodeActionProvider,
  formatting: registerFormattingProvider,
  rangeFormatting: registerRangeFormattingProvider,
  onTypeFormatting: registerOnTypeFormattingProvider,
  documentHighlight: registerDocumentHighlightProvider,
  foldingRange: registerFoldingRangeProvider,
  inlayHint: registerInlayHintsProvider,
  implementation: registerImplementationProvider,
  typeDefinition: registerTypeDefinitionProvider,
  declaration: registerDeclarationProvider,
  callHierarchy: registerCallHierarchy,
  typeHierarchy: registerTypeHierarchy,
  codeLens: registerCodeLensProvider,
  documentLink: registerDocumentLinkProvider,
  color: registerColorProvider,
  selectionRange: registerSelectionRangeProvider,
  linkedEditingRange: registerLinkedEditingRangeProvider,
};

/** Registers every advertised registration of every feature; what it returns disposes exactly those. */
export function registerAdvertisedProviders(host: ProviderHost): { disposable: Disposable; features: Set<Feature> } {
  const providers = new AdvertisedProviders(host);
  providers.update();
  return { disposable: providers, features: providers.features() };
}

/**
 * The providers of one generation, kept per feature: an update re-registers only the features whose
 * registrations (or the editing switches) changed. Monaco asks a feature's providers again whenever
 * its registry changes, so re-registering everything on each dynamic registration a server sends
 * (pyright sends several while it starts) would ask for code actions, symbols and tokens again and
 * again with nothing changed.
 */
export class AdvertisedProviders implements Disposable {
  private readonly registered = new Map<ProvidedFeature, { signature: string; disposable: Disposable }>();

  constructor(private readonly host: ProviderHost) {}

  /** Brings the registered providers up to date; true when any feature changed. */
  update(): boolean {
    let changed = false;
    const preferences = JSON.stringify(this.host.preferences());
    for (const feature of Object.keys(REGISTER) as ProvidedFeature[]) {
      const registrations = this.host.context.capabilities.registrations(feature);
      const signature = registrations.length ? `${JSON.stringify(registrations)}\u0000${preferences}` : '';
      const current = this.registered.get(feature);
      if ((current?.signature ?? '') === signature) continue;
      changed = true;
      current?.disposable.dispose();
      this.registered.delete(feature);
      if (!signature) continue;
      const store = new DisposableStore();
      for (const registration of registrations) {
        store.add((REGISTER[feature] as (h: ProviderHost, r: FeatureRegistration<ProvidedFeature>) => Disposable)(this.host, registration));
      }
      this.registered.set(feature, { signature, disposable: store });
    }
    return changed;
  }

  features(): Set<Feature> {
    return new Set<Feature>(this.registered.keys());
  }

  dispose(): void {
    for (const { disposable } of this.registered.values()) disposable.dispose();
    this.registered.clear();
  }
}

/** Built-in features an LSP provider replaces: the advertised ones, plus diagnostics (pushed by servers). */
export function suppressedFeatures(advertised: ReadonlySet<Feature>): SuppressibleFeature[] {
  return SUPPRESSIBLE_FEATURES.filter((f) => f === 'diagnostics' || advertised.has(f as Feature));
}

/**
 * The Monaco side of one connection generation: providers for advertised capabilities (re-made
 * when dynamic registrations change), built-in suppression claims for exactly those features,
 * markers, and placeholder models for navigation targets. Disposing it removes only these (S30).
 */
export function createMonacoFeatureBinder(deps: BinderDeps): FeatureBinder {
  const { monaco } = deps;
  return (context: FeatureContext): FeatureBinding => {
    const store = new DisposableStore();
    const placeholders = new Map<string, Promise<Disposable | undefined>>();
    const toModelUri = (fileUri: string): MonacoUri => {
      const rel = workspaceRelativePath(context.workspace.workspaceUri, fileUri);
      return rel ? monaco.Uri.from(sessionModelUriParts(context.sessionId, rel)) : monaco.Uri.parse(fileUri);
    };
    const editing = deps.editing ?? new EditingRegistry();
    const text = deps.text ?? ((key: string) => key);
    const notify = deps.notify ?? (() => undefined);
    // A confirmation still open when this generation ends is declined: nothing of it applies.
    const aborts = new Set<() => void>();
    store.add(
      toDisposable(() => {
        for (const abort of [...aborts]) abort();
        aborts.clear();
      }),
    );
    const ended = { onAbort: (listener: () => void) => (store.isDisposed ? listener() : void aborts.add(listener)) };
    const settled = store.add(new SettledRequests(context.clock));
    // A closed document's answers are of no use any more; a refresh from the server voids them.
    store.add(context.onDocumentSync(({ path, kind }) => kind === 'close' && settled.forget(settlePrefix(path))));
    store.add(context.onSemanticTokensRefresh(() => settled.forget('')));
    store.add(context.onInlayHintRefresh(() => settled.forget('')));
    store.add(editing.fileOperations.add(context.sessionId, context.language, fileOperationParticipant(context)));
    const host: ProviderHost = {
      context,
      editing,
      text,
      notify,
      failureText: (failure) => deps.failureText?.(failure, context.language) ?? text(`requestFailed.${failure.reason}`),
      onDocumentSync: context.onDocumentSync,
      settled,
      settleMs: deps.settleMs ?? SETTLE_MS,
      whenDrawing: (token) => deps.whenDrawing?.(token) ?? Promise.resolve(true),
      recordWordList: (model, ms, cancelled) => deps.quickSuggest?.recordList(model, ms, cancelled),
      serveWordLists: () =>
        deps.quickSuggest?.serveLists(sessionSelector(context.language).map((filter) => filter.language as string)) ?? toDisposable(() => undefined),
      versionOf: (path) => monaco.editor.getModel(monaco.Uri.from(sessionModelUriParts(context.sessionId, path)))?.getVersionId(),
      preferences: () => deps.preferences?.get(context.language) ?? DEFAULT_PREFERENCES,
      targetUri(path, registration) {
        if (!context.isOpen(path)) return undefined;
        const uri = serverFileUri(context.workspace.workspaceUri, path);
        const languageId = documentLanguageId(path) ?? context.language;
        return matchesDocumentSelector(registration.documentSelector, { languageId, uri }) ? uri : undefined;
      },
      applyEdit: async (edit, expect) => {
        if (store.isDisposed) return { applied: false, failureReason: text('apply.ended') };
        const apply = deps.applyWorkspaceEdit;
        if (!apply) return { applied: false, failureReason: text('apply.unsupported') };
        return applyEditWithParticipants(
          edit,
          {
            sessionId: context.sessionId,
            toPath: (uri) => workspaceRelativePath(context.workspace.workspaceUri, uri),
            confirmations: editing.confirmations,
            participants: () => editing.fileOperations.ofSession(context.sessionId),
            apply: (e, versions) =>
              store.isDisposed
                ? Promise.resolve({ applied: false as const, failureReason: text('apply.ended') })
                : apply(context.sessionId, context.workspace.workspaceUri, e, versions),
            text,
            ended,
          },
          expect,
        );
      },
      registerCommand: (id, handler) => {
        const registered = monaco.editor.registerCommand(id, (_accessor: unknown, ...args: unknown[]) => handler(...args));
        return toDisposable(() => registered.dispose());
      },
      foldingKind: (kind) => {
        const kinds = (
          monaco.languages as {
            FoldingRangeKind?: {
              Comment: Monaco.languages.FoldingRangeKind;
              Imports: Monaco.languages.FoldingRangeKind;
              Region: Monaco.languages.FoldingRangeKind;
            };
          }
        ).FoldingRangeKind;
        if (!kinds) return undefined;
        return kind === 'comment' ? kinds.Comment : kind === 'imports' ? kinds.Imports : kind === 'region' ? kinds.Region : undefined;
      },
      languages: monaco.languages,
      selector: sessionSelector(context.language),
      target: (model, registration) => documentTarget(context, model, registration),
      toModelUri,
      async preload(fileUris) {
        const paths = fileUris
          .map((u) => workspaceRelativePath(context.workspace.workspaceUri, u))
          .filter((p): p is string => p !== undefined)
          .slice(0, deps.maxPreload ?? 25);
        await Promise.all(
          paths.map((path) => {
            // A reference per target and generation: a tab closing later cannot pull the model from
            // under Monaco's preview, and this generation's end releases exactly these (S30).
            let pending = placeholders.get(path);
            if (!pending) {
              pending = deps.acquireModel(context.sessionId, path).catch(() => undefined);
              placeholders.set(path, pending);
              void pending.then((ref) => {
                if (ref) store.add(ref);
              });
            }
            return pending;
          }),
        );
      },
    };

    const providers = new AdvertisedProviders(host);
    let claim: { features: string; disposable: Disposable } | undefined;
    const registerAll = () => {
      providers.update();
      const features = suppressedFeatures(providers.features());
      if (claim?.features === features.join()) return;
      const previous = claim;
      claim = { features: features.join(), disposable: deps.suppression.claim(context.sessionId, context.language, features) };
      previous?.disposable.dispose();
    };
    registerAll();
    store.add(context.capabilities.onDidChange(registerAll));
    if (deps.preferences) store.add(deps.preferences.onDidChange(registerAll));
    store.add(toDisposable(() => claim?.disposable.dispose()));
    store.add(providers);

    // Diagnostics: markers on this session's models only, under an owner unique to this generation.
    // Pushed and pulled diagnostics (each pull registration apart) are merged per document, so an
    // entry two sources report shows once and one source's update never clears another's.
    const owner = `kandev-lsp.${context.language}.${context.generation}`;
    const diagnostics = new DiagnosticSet();
    const marked = new Set<string>();
    store.add(
      monaco.editor.onWillDisposeModel((model) => {
        if (!marked.delete(model.uri.toString())) return;
        monaco.editor.setModelMarkers(model, owner, []);
      }),
    );
    store.add(
      toDisposable(() => {
        for (const key of marked) {
          const model = monaco.editor.getModel(monaco.Uri.parse(key));
          if (model) monaco.editor.setModelMarkers(model, owner, []);
        }
        marked.clear();
      }),
    );
    function paint(rel: string): void {
      if (store.isDisposed) return;
      const model = monaco.editor.getModel(monaco.Uri.from(sessionModelUriParts(context.sessionId, rel)));
      if (!model) return;
      const markers = diagnostics.merged(rel).map((d) => toMarkerData(d, toModelUri, (u) => monaco.Uri.parse(u)));
      const key = model.uri.toString();
      if (markers.length === 0 && !marked.has(key)) return;
      monaco.editor.setModelMarkers(model, owner, markers);
      if (markers.length) marked.add(key);
      else marked.delete(key);
    }
    const report = (rel: string, source: string, list: readonly Diagnostic[] | undefined) => {
      diagnostics.set(rel, source, list);
      paint(rel);
    };
    store.add(
      new PullDiagnostics({
        context,
        clock: context.clock,
        targetUri: (path, registration) => host.targetUri(path, registration),
        toPath: (uri) => workspaceRelativePath(context.workspace.workspaceUri, uri),
        report,
        drop: (source) => diagnostics.dropSource(source).forEach(paint),
      }),
    );
    const publishDiagnostics = (params: PublishDiagnosticsParams) => {
      const rel = workspaceRelativePath(context.workspace.workspaceUri, params.uri);
      if (rel) report(rel, 'push', params.diagnostics);
    };
    const applyEdit = async (params: ApplyWorkspaceEditParams): Promise<ApplyWorkspaceEditResult> => {
      const result = await host.applyEdit(params.edit);
      return result.applied ? { applied: true } : { applied: false, failureReason: result.failureReason };
    };

    return { publishDiagnostics, applyEdit, dispose: () => store.dispose() };
  };
}
