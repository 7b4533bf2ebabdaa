import type {
  CodeActionOptions,
  CompletionOptions,
  DiagnosticOptions,
  DocumentOnTypeFormattingOptions,
  InlayHintOptions,
  RenameOptions,
  WorkspaceSymbolOptions,
  DocumentSelector,
  Registration,
  SemanticTokensOptions,
  ServerCapabilities,
  SignatureHelpOptions,
  TextDocumentSyncOptions,
  Unregistration,
} from 'vscode-languageserver-protocol';
import { isRecord } from '@kandev/protocol';
import { Emitter, type Event } from '@kandev/kit';

/** Language features Kandev wires to Monaco providers. */
export const FEATURES = [
  'completion',
  'hover',
  'definition',
  'references',
  'signatureHelp',
  'semanticTokens',
  // Editing features (docs/editing.md)
  'documentSymbol',
  'workspaceSymbol',
  'rename',
  'codeAction',
  'formatting',
  'rangeFormatting',
  'onTypeFormatting',
  'documentHighlight',
  'foldingRange',
  'inlayHint',
  'diagnostic',
  // Navigation and hierarchies (docs/editing.md)
  'implementation',
  'typeDefinition',
  'declaration',
  'callHierarchy',
  'typeHierarchy',
] as const;
export type Feature = (typeof FEATURES)[number];

export const FEATURE_METHODS: Record<Feature, string> = {
  completion: 'textDocument/completion',
  hover: 'textDocument/hover',
  definition: 'textDocument/definition',
  references: 'textDocument/references',
  signatureHelp: 'textDocument/signatureHelp',
  semanticTokens: 'textDocument/semanticTokens',
  documentSymbol: 'textDocument/documentSymbol',
  workspaceSymbol: 'workspace/symbol',
  rename: 'textDocument/rename',
  codeAction: 'textDocument/codeAction',
  formatting: 'textDocument/formatting',
  rangeFormatting: 'textDocument/rangeFormatting',
  onTypeFormatting: 'textDocument/onTypeFormatting',
  documentHighlight: 'textDocument/documentHighlight',
  foldingRange: 'textDocument/foldingRange',
  inlayHint: 'textDocument/inlayHint',
  diagnostic: 'textDocument/diagnostic',
  implementation: 'textDocument/implementation',
  typeDefinition: 'textDocument/typeDefinition',
  declaration: 'textDocument/declaration',
  callHierarchy: 'textDocument/prepareCallHierarchy',
  typeHierarchy: 'textDocument/prepareTypeHierarchy',
};

export interface FeatureOptions {
  completion: CompletionOptions;
  hover: Record<string, unknown>;
  definition: Record<string, unknown>;
  references: Record<string, unknown>;
  signatureHelp: SignatureHelpOptions;
  semanticTokens: SemanticTokensOptions;
  documentSymbol: Record<string, unknown>;
  workspaceSymbol: WorkspaceSymbolOptions;
  rename: RenameOptions;
  codeAction: CodeActionOptions;
  formatting: Record<string, unknown>;
  rangeFormatting: Record<string, unknown>;
  onTypeFormatting: DocumentOnTypeFormattingOptions;
  documentHighlight: Record<string, unknown>;
  foldingRange: Record<string, unknown>;
  inlayHint: InlayHintOptions;
  diagnostic: DiagnosticOptions;
  implementation: Record<string, unknown>;
  typeDefinition: Record<string, unknown>;
  declaration: Record<string, unknown>;
  callHierarchy: Record<string, unknown>;
  typeHierarchy: Record<string, unknown>;
}

/** One source of a feature: the static capability or one dynamic registration. */
export interface FeatureRegistration<F extends Feature = Feature> {
  /** `static` for the initialize result, else the dynamic registration id. */
  id: string;
  feature: F;
  options: FeatureOptions[F];
  /** Documents it covers; null means every document of the connection. */
  documentSelector: DocumentSelector | null;
}

export const TextDocumentSyncKind = { None: 0, Full: 1, Incremental: 2 } as const;
export type SyncKind = 0 | 1 | 2;

export interface EffectiveSync {
  openClose: boolean;
  change: SyncKind;
  /** false: no didSave; otherwise whether it carries the saved text. */
  save: false | { includeText: boolean };
}

function selectorOf(options: unknown): DocumentSelector | null {
  if (isRecord(options) && Array.isArray(options.documentSelector)) return options.documentSelector as DocumentSelector;
  return null;
}

/** A static provider capability as options, or undefined when it is absent or false. */
function staticOptions(feature: Feature, caps: ServerCapabilities): Record<string, unknown> | undefined {
  const value = (() => {
    switch (feature) {
      case 'completion':
        return caps.completionProvider;
      case 'hover':
        return caps.hoverProvider;
      case 'definition':
        return caps.definitionProvider;
      case 'references':
        return caps.referencesProvider;
      case 'signatureHelp':
        return caps.signatureHelpProvider;
      case 'semanticTokens':
        return caps.semanticTokensProvider;
      case 'documentSymbol':
        return caps.documentSymbolProvider;
      case 'workspaceSymbol':
        return caps.workspaceSymbolProvider;
      case 'rename':
        return caps.renameProvider;
      case 'codeAction':
        return caps.codeActionProvider;
      case 'formatting':
        return caps.documentFormattingProvider;
      case 'rangeFormatting':
        return caps.documentRangeFormattingProvider;
      case 'onTypeFormatting':
        return caps.documentOnTypeFormattingProvider;
      case 'documentHighlight':
        return caps.documentHighlightProvider;
      case 'foldingRange':
        return caps.foldingRangeProvider;
      case 'inlayHint':
        return caps.inlayHintProvider;
      case 'diagnostic':
        return caps.diagnosticProvider;
      case 'implementation':
        return caps.implementationProvider;
      case 'typeDefinition':
        return caps.typeDefinitionProvider;
      case 'declaration':
        return caps.declarationProvider;
      case 'callHierarchy':
        return caps.callHierarchyProvider;
      case 'typeHierarchy':
        return caps.typeHierarchyProvider;
    }
  })() as unknown;
  if (value === true) return {};
  if (!isRecord(value)) return undefined;
  return value;
}

/**
 * Semantic tokens are wired for `full` (with `delta`) and `range`: a provider with neither is not usable here. On-type
 * formatting without a trigger character can never fire.
 */
function usable(feature: Feature, options: Record<string, unknown>): boolean {
  if (feature === 'onTypeFormatting') return typeof options.firstTriggerCharacter === 'string' && options.firstTriggerCharacter !== '';
  if (feature !== 'semanticTokens') return true;
  const legend = options.legend;
  return Boolean(options.full || options.range) && isRecord(legend) && Array.isArray(legend.tokenTypes) && Array.isArray(legend.tokenModifiers);
}

/**
 * What a server can do: its static capabilities plus the effective dynamic registrations.
 * The registration layer asks which features are active; it re-registers on `onDidChange`.
 */
export class ServerCapabilityIndex {
  private readonly dynamic = new Map<string, Registration>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changed.event;

  constructor(
    readonly server: ServerCapabilities,
    registrations: readonly unknown[] = [],
  ) {
    this.apply(registrations, false);
  }

  /** Effective dynamic registrations (what the broker retains and hands back on resume). */
  dynamicRegistrations(): Registration[] {
    return [...this.dynamic.values()];
  }

  register(registrations: readonly unknown[]): void {
    this.apply(registrations, true);
  }

  unregister(unregistrations: readonly unknown[]): void {
    let changed = false;
    for (const item of unregistrations) {
      if (isRecord(item) && typeof item.id === 'string') changed = this.dynamic.delete(item.id) || changed;
    }
    if (changed) this.changed.fire();
  }

  private apply(registrations: readonly unknown[], notify: boolean): void {
    let changed = false;
    for (const item of registrations) {
      if (!isRecord(item) || typeof item.id !== 'string' || typeof item.method !== 'string') continue;
      this.dynamic.set(item.id, item as unknown as Registration);
      changed = true;
    }
    if (changed && notify) this.changed.fire();
  }

  registrations<F extends Feature>(feature: F): FeatureRegistration<F>[] {
    const out: FeatureRegistration<F>[] = [];
    const fromStatic = staticOptions(feature, this.server);
    if (fromStatic && usable(feature, fromStatic)) {
      out.push({ id: 'static', feature, options: fromStatic as unknown as FeatureOptions[F], documentSelector: selectorOf(fromStatic) });
    }
    for (const reg of this.dynamic.values()) {
      if (reg.method !== FEATURE_METHODS[feature]) continue;
      const options = isRecord(reg.registerOptions) ? reg.registerOptions : {};
      if (!usable(feature, options)) continue;
      out.push({ id: reg.id, feature, options: options as unknown as FeatureOptions[F], documentSelector: selectorOf(options) });
    }
    return out;
  }

  has(feature: Feature): boolean {
    return this.registrations(feature).length > 0;
  }

  activeFeatures(): Feature[] {
    return FEATURES.filter((f) => this.has(f));
  }

  /** Document synchronization: the static textDocumentSync, refined by didChange/didSave registrations. */
  sync(): EffectiveSync {
    const raw = this.server.textDocumentSync;
    let result: EffectiveSync;
    if (typeof raw === 'number') {
      // A bare kind implies open/close notifications, as vscode-languageclient reads it.
      result = { openClose: true, change: clampKind(raw), save: { includeText: false } };
    } else if (isRecord(raw)) {
      const o = raw as TextDocumentSyncOptions;
      const save = o.save === true ? { includeText: false } : isRecord(o.save) ? { includeText: o.save.includeText === true } : false;
      result = { openClose: o.openClose === true, change: clampKind(o.change ?? 0), save };
    } else {
      result = { openClose: false, change: 0, save: false };
    }
    for (const reg of this.dynamic.values()) {
      const options = isRecord(reg.registerOptions) ? reg.registerOptions : {};
      if (reg.method === 'textDocument/didOpen' || reg.method === 'textDocument/didClose') result.openClose = true;
      if (reg.method === 'textDocument/didChange') {
        result.openClose = true;
        result.change = clampKind(typeof options.syncKind === 'number' ? options.syncKind : 0);
      }
      if (reg.method === 'textDocument/didSave') result.save = { includeText: options.includeText === true };
    }
    return result;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function clampKind(kind: number): SyncKind {
  return kind === 1 || kind === 2 ? kind : 0;
}

/** A typed unregistration helper for the server request router. */
export type { Registration, Unregistration };
