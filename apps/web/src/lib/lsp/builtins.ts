import { LANGUAGE_DESCRIPTORS, languageForPath, type LanguageId } from '@kandev/protocol';
import { Emitter, toDisposable, type Disposable, type Event } from '@kandev/kit';
import { DIFF_TEXT_SCHEME, parseSessionModelUri, type UriParts } from './uris.js';

/**
 * Monaco's TypeScript/JavaScript built-ins are suppressed only for the features an active
 * connection advertises and only on the models that connection owns (S14-S16). Turning a
 * built-in off globally (typescriptDefaults.setModeConfiguration) would take it from every other
 * session and from plain models too, so instead every built-in provider is wrapped as it
 * registers and asks, per call, whether its model is owned for that feature.
 */
export const SUPPRESSIBLE_FEATURES = [
  'completion',
  'hover',
  'definition',
  'references',
  'signatureHelp',
  'diagnostics',
  // Editing features Monaco's TypeScript worker also provides (docs/editing.md)
  'documentSymbol',
  'rename',
  'codeAction',
  'rangeFormatting',
  'onTypeFormatting',
  'documentHighlight',
  'inlayHint',
] as const;
export type SuppressibleFeature = (typeof SUPPRESSIBLE_FEATURES)[number];

/** Monaco language ids whose built-in language service this guards (their language descriptor says Monaco has one). */
export const BUILTIN_LANGUAGE_IDS: readonly string[] = LANGUAGE_DESCRIPTORS.filter((d) => d.monaco.builtinLanguageService).flatMap((d) => d.monaco.languageIds);

export interface ModelLike {
  readonly uri: UriParts;
  isDisposed?(): boolean;
}

interface Claim {
  sessionId: string;
  language: LanguageId;
  features: ReadonlySet<SuppressibleFeature>;
}

/** The window-wide set of (session, language, features) that active connections own. */
export class BuiltinSuppression {
  private readonly claims = new Set<Claim>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changed.event;

  /** A connection owns these features on its session's models of its language until disposed. */
  claim(sessionId: string, language: LanguageId, features: Iterable<SuppressibleFeature>): Disposable {
    const claim: Claim = { sessionId, language, features: new Set(features) };
    if (claim.features.size === 0) return toDisposable(() => undefined);
    this.claims.add(claim);
    this.changed.fire();
    return toDisposable(() => {
      if (this.claims.delete(claim)) this.changed.fire();
    });
  }

  isSuppressed(model: ModelLike | undefined, feature: SuppressibleFeature): boolean {
    // A guard must never break the built-in it wraps: anything unexpected means "not owned".
    if (!model?.uri) return false;
    // The original side of a diff stays plain: Monaco's worker would read HEAD's text as a file of its own.
    if (model.uri.scheme === DIFF_TEXT_SCHEME) return true;
    if (this.claims.size === 0) return false;
    const parsed = parseSessionModelUri(model.uri);
    if (!parsed) return false;
    const language = languageForPath(parsed.path);
    for (const claim of this.claims) {
      if (claim.sessionId === parsed.sessionId && claim.language === language && claim.features.has(feature)) return true;
    }
    return false;
  }

  get claimCount(): number {
    return this.claims.size;
  }
}

/** Providers Kandev registers itself: never wrapped. */
const kandevProviders = new WeakSet<object>();
export function markKandevProvider<T extends object>(provider: T): T {
  kandevProviders.add(provider);
  return provider;
}
export function isKandevProvider(provider: unknown): boolean {
  return typeof provider === 'object' && provider !== null && kandevProviders.has(provider);
}

type ProvideMethod = { method: string; empty: () => unknown };

/**
 * The provide methods of each provider kind and what "nothing" is for each. Rename has two: a
 * location answer of `undefined` makes Monaco ask the next provider, as does a null edit.
 */
const PROVIDE_METHODS: Record<Exclude<SuppressibleFeature, 'diagnostics'>, ProvideMethod[]> = {
  completion: [{ method: 'provideCompletionItems', empty: () => ({ suggestions: [] }) }],
  hover: [{ method: 'provideHover', empty: () => null }],
  definition: [{ method: 'provideDefinition', empty: () => null }],
  references: [{ method: 'provideReferences', empty: () => null }],
  signatureHelp: [{ method: 'provideSignatureHelp', empty: () => null }],
  documentSymbol: [{ method: 'provideDocumentSymbols', empty: () => null }],
  rename: [
    { method: 'provideRenameEdits', empty: () => null },
    { method: 'resolveRenameLocation', empty: () => undefined },
  ],
  codeAction: [{ method: 'provideCodeActions', empty: () => ({ actions: [], dispose: () => undefined }) }],
  rangeFormatting: [{ method: 'provideDocumentRangeFormattingEdits', empty: () => null }],
  onTypeFormatting: [{ method: 'provideOnTypeFormattingEdits', empty: () => null }],
  documentHighlight: [{ method: 'provideDocumentHighlights', empty: () => null }],
  inlayHint: [{ method: 'provideInlayHints', empty: () => ({ hints: [], dispose: () => undefined }) }],
};

/** Does a Monaco LanguageSelector target the built-in TypeScript/JavaScript languages? */
export function selectorTargetsBuiltins(selector: unknown): boolean {
  const one = (s: unknown): boolean => {
    if (typeof s === 'string') return BUILTIN_LANGUAGE_IDS.includes(s);
    if (typeof s === 'object' && s !== null) {
      const language = (s as { language?: unknown }).language;
      return typeof language === 'string' && BUILTIN_LANGUAGE_IDS.includes(language);
    }
    return false;
  };
  return Array.isArray(selector) ? selector.some(one) : one(selector);
}

/**
 * Features Monaco asks for by itself as soon as a model is shown (the light bulb, highlights under
 * the caret, inlay hints, the outline behind breadcrumbs), before a starting server has claimed the
 * model. Such a call does not make the built-in "needed": it waits for the worker like any other
 * and the worker is loaded only when the person asks for something the server does not own, or the
 * server is not on its way (typescriptWorkerGate.ts).
 */
const ASKED_UNPROMPTED: ReadonlySet<SuppressibleFeature> = new Set(['codeAction', 'documentHighlight', 'inlayHint', 'documentSymbol']);

/** A built-in provider that answers nothing for owned models and defers to the original otherwise. */
export function wrapBuiltinProvider<P extends object>(
  feature: Exclude<SuppressibleFeature, 'diagnostics'>,
  provider: P,
  suppression: BuiltinSuppression,
  onBuiltinUse?: () => void,
): P {
  const methods = PROVIDE_METHODS[feature].filter(({ method }) => typeof (provider as Record<string, unknown>)[method] === 'function');
  if (methods.length === 0) return provider;
  const wrapped = Object.create(provider) as Record<string, unknown>;
  for (const { method, empty } of methods) {
    const original = (provider as Record<string, unknown>)[method] as (...args: unknown[]) => unknown;
    wrapped[method] = (model: ModelLike, ...rest: unknown[]) => {
      if (suppression.isSuppressed(model, feature)) return empty();
      // The built-in answers this one: its worker is needed now (lib/monaco/typescriptWorkerGate.ts).
      if (!ASKED_UNPROMPTED.has(feature)) onBuiltinUse?.();
      return original.call(provider, model, ...rest);
    };
  }
  return wrapped as P;
}

/**
 * A built-in's selector, marked as one. Monaco orders providers of equal score newest first, and
 * range formatting and formatting on type ask only the first. Monaco registers its TypeScript
 * providers when the first TypeScript model appears, which under load came after the server that
 * started on the file's name was ready: the suppressed built-in was then first, and Format
 * Selection did nothing, with no request and no word, for as long as the page lived (seen twice in
 * CI). Marked built-in (Monaco's own flag), it comes after every provider of ours whenever it
 * registered, and still answers alone where no server of ours does.
 */
export function builtinSelector(selector: unknown): unknown {
  const one = (s: unknown): unknown => {
    if (typeof s === 'string') return { language: s, isBuiltin: true };
    if (typeof s === 'object' && s !== null) return { ...s, isBuiltin: true };
    return s;
  };
  return Array.isArray(selector) ? selector.map(one) : one(selector);
}

type RegisterFn = (selector: unknown, provider: object, ...rest: unknown[]) => Disposable;

/** The parts of monaco.languages / monaco.editor the guards patch. */
export interface GuardableLanguages {
  registerCompletionItemProvider: RegisterFn;
  registerHoverProvider: RegisterFn;
  registerDefinitionProvider: RegisterFn;
  registerReferenceProvider: RegisterFn;
  registerSignatureHelpProvider: RegisterFn;
  registerDocumentSymbolProvider: RegisterFn;
  registerRenameProvider: RegisterFn;
  registerCodeActionProvider: RegisterFn;
  registerDocumentRangeFormattingEditProvider: RegisterFn;
  registerOnTypeFormattingEditProvider: RegisterFn;
  registerDocumentHighlightProvider: RegisterFn;
  registerInlayHintsProvider: RegisterFn;
}
export interface GuardableEditor {
  setModelMarkers(model: ModelLike, owner: string, markers: unknown[]): void;
  getModelMarkers(filter: { owner?: string; resource?: unknown }): unknown[];
  getModels(): ModelLike[];
}

const REGISTER_FUNCTIONS: Array<[keyof GuardableLanguages, Exclude<SuppressibleFeature, 'diagnostics'>]> = [
  ['registerCompletionItemProvider', 'completion'],
  ['registerHoverProvider', 'hover'],
  ['registerDefinitionProvider', 'definition'],
  ['registerReferenceProvider', 'references'],
  ['registerSignatureHelpProvider', 'signatureHelp'],
  ['registerDocumentSymbolProvider', 'documentSymbol'],
  ['registerRenameProvider', 'rename'],
  ['registerCodeActionProvider', 'codeAction'],
  ['registerDocumentRangeFormattingEditProvider', 'rangeFormatting'],
  ['registerOnTypeFormattingEditProvider', 'onTypeFormatting'],
  ['registerDocumentHighlightProvider', 'documentHighlight'],
  ['registerInlayHintsProvider', 'inlayHint'],
];

/**
 * Installs the guards once, before any TypeScript model exists (Monaco registers its
 * TypeScript providers lazily, on the first such model, so order against LSP start does not
 * matter: the decision is made per call, S14). Diagnostics of the built-in worker are held back
 * for owned models and given back when the claim ends.
 */
export function installBuiltinGuards(
  languages: GuardableLanguages,
  editor: GuardableEditor,
  suppression: BuiltinSuppression,
  onBuiltinUse?: () => void,
): Disposable {
  const restore: Array<() => void> = [];
  for (const [name, feature] of REGISTER_FUNCTIONS) {
    const original = languages[name].bind(languages);
    languages[name] = (selector, provider, ...rest) => {
      if (isKandevProvider(provider) || !selectorTargetsBuiltins(selector)) return original(selector, provider, ...rest);
      return original(builtinSelector(selector), wrapBuiltinProvider(feature, provider, suppression, onBuiltinUse), ...rest);
    };
    restore.push(() => {
      languages[name] = original;
    });
  }

  // Built-in diagnostics: markers owned by 'typescript' / 'javascript' (the DiagnosticsAdapter's owners).
  const originalSetMarkers = editor.setModelMarkers.bind(editor);
  const held = new Map<ModelLike, Map<string, unknown[]>>();
  const isBuiltinOwner = (owner: string) => BUILTIN_LANGUAGE_IDS.includes(owner);
  editor.setModelMarkers = (model, owner, markers) => {
    if (isBuiltinOwner(owner) && suppression.isSuppressed(model, 'diagnostics')) {
      let byOwner = held.get(model);
      if (!byOwner) held.set(model, (byOwner = new Map()));
      byOwner.set(owner, markers);
      originalSetMarkers(model, owner, []);
      return;
    }
    held.get(model)?.delete(owner);
    originalSetMarkers(model, owner, markers);
  };
  restore.push(() => {
    editor.setModelMarkers = originalSetMarkers;
  });

  const reconcile = () => {
    // Newly owned models: hide what the built-in already reported.
    for (const model of editor.getModels()) {
      if (!suppression.isSuppressed(model, 'diagnostics')) continue;
      for (const owner of BUILTIN_LANGUAGE_IDS) {
        const current = editor.getModelMarkers({ owner, resource: model.uri });
        if (current.length > 0) editor.setModelMarkers(model, owner, current);
      }
    }
    // Models no longer owned: give the built-in's latest markers back.
    for (const [model, byOwner] of [...held]) {
      if (model.isDisposed?.()) {
        held.delete(model);
        continue;
      }
      if (suppression.isSuppressed(model, 'diagnostics')) continue;
      held.delete(model);
      for (const [owner, markers] of byOwner) originalSetMarkers(model, owner, markers);
    }
  };
  const subscription = suppression.onDidChange(reconcile);
  restore.push(() => subscription.dispose());

  return toDisposable(() => {
    for (const fn of restore.reverse()) fn();
  });
}
