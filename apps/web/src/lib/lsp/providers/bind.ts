import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { SUPPRESSIBLE_FEATURES, type BuiltinSuppression, type SuppressibleFeature } from '../builtins.js';
import type { Feature, FeatureRegistration } from '../capabilities.js';
import { DisposableStore, toDisposable, type Disposable } from '../disposable.js';
import type { FeatureBinder, FeatureBinding, FeatureContext } from '../features.js';
import { sessionModelUriParts, workspaceRelativePath } from '../uris.js';
import { registerCompletionProvider } from './completion.js';
import { toMarkerData } from './diagnostics.js';
import { documentTarget, sessionSelector, type MonacoApi, type MonacoUri, type ProviderHost } from './host.js';
import { registerHoverProvider } from './hover.js';
import { registerDefinitionProvider, registerReferenceProvider } from './locations.js';
import { registerSemanticTokensProvider } from './semanticTokens.js';
import { registerSignatureHelpProvider } from './signatureHelp.js';

export interface BinderDeps {
  monaco: MonacoApi;
  suppression: BuiltinSuppression;
  /** A reference to the session's model of a path, loading it when needed (navigation targets). */
  acquireModel(sessionId: string, path: string): Promise<Disposable | undefined>;
  /** At most this many target files are loaded per navigation result. */
  maxPreload?: number;
}

const REGISTER: { [F in Feature]: (host: ProviderHost, registration: FeatureRegistration<F>) => Disposable } = {
  completion: registerCompletionProvider,
  hover: registerHoverProvider,
  definition: registerDefinitionProvider,
  references: registerReferenceProvider,
  signatureHelp: registerSignatureHelpProvider,
  semanticTokens: registerSemanticTokensProvider,
};

/** Registers every advertised registration of every feature; what it returns disposes exactly those. */
export function registerAdvertisedProviders(host: ProviderHost): { disposable: Disposable; features: Set<Feature> } {
  const store = new DisposableStore();
  const features = new Set<Feature>();
  for (const feature of Object.keys(REGISTER) as Feature[]) {
    for (const registration of host.context.capabilities.registrations(feature)) {
      store.add((REGISTER[feature] as (h: ProviderHost, r: FeatureRegistration<Feature>) => Disposable)(host, registration));
      features.add(feature);
    }
  }
  return { disposable: store, features };
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
    const host: ProviderHost = {
      context,
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

    let providers: Disposable | undefined;
    const registerAll = () => {
      const next = new DisposableStore();
      const { disposable, features } = registerAdvertisedProviders(host);
      next.add(disposable);
      next.add(deps.suppression.claim(context.sessionId, context.language, suppressedFeatures(features)));
      const previous = providers;
      providers = next;
      previous?.dispose();
    };
    registerAll();
    store.add(context.capabilities.onDidChange(registerAll));
    store.add(toDisposable(() => providers?.dispose()));

    // Diagnostics: markers on this session's models only, under an owner unique to this generation.
    const owner = `kandev-lsp.${context.language}.${context.generation}`;
    const marked = new Set<string>();
    store.add(
      monaco.editor.onWillDisposeModel((model) => {
        const key = model.uri.toString();
        if (marked.delete(key)) monaco.editor.setModelMarkers(model, owner, []);
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
    const publishDiagnostics = (params: PublishDiagnosticsParams) => {
      if (store.isDisposed) return;
      const rel = workspaceRelativePath(context.workspace.workspaceUri, params.uri);
      if (!rel) return;
      const model = monaco.editor.getModel(monaco.Uri.from(sessionModelUriParts(context.sessionId, rel)));
      if (!model) return;
      const markers = params.diagnostics.map((d) => toMarkerData(d, toModelUri, (u) => monaco.Uri.parse(u)));
      monaco.editor.setModelMarkers(model, owner, markers);
      if (markers.length) marked.add(model.uri.toString());
      else marked.delete(model.uri.toString());
    };

    return { publishDiagnostics, dispose: () => store.dispose() };
  };
}
