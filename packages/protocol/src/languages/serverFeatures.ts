/**
 * The language features a server can offer, as the capability table of docs/languages.md and the
 * status details list them. Each is read from one `ServerCapabilities` field of the `initialize`
 * result or from a `client/registerCapability` registration of one of its methods.
 */
export const SERVER_FEATURES = [
  'completion',
  'hover',
  'signatureHelp',
  'definition',
  'declaration',
  'typeDefinition',
  'implementation',
  'references',
  'documentHighlight',
  'documentSymbol',
  'workspaceSymbol',
  'codeAction',
  'codeLens',
  'documentLink',
  'color',
  'formatting',
  'rangeFormatting',
  'onTypeFormatting',
  'rename',
  'foldingRange',
  'selectionRange',
  'linkedEditingRange',
  'callHierarchy',
  'typeHierarchy',
  'semanticTokens',
  'inlayHint',
  'diagnostic',
  'executeCommand',
  'fileOperations',
] as const;

export type ServerFeature = (typeof SERVER_FEATURES)[number];

interface FeatureSource {
  /** Path of the field in `ServerCapabilities`. */
  capability: readonly string[];
  /** Methods whose dynamic registration offers the feature. */
  methods: readonly string[];
}

const FILE_OPERATIONS = ['willCreate', 'didCreate', 'willRename', 'didRename', 'willDelete', 'didDelete'] as const;

/** Where each feature is advertised (LSP 3.17). */
export const SERVER_FEATURE_SOURCES: Readonly<Record<ServerFeature, FeatureSource>> = {
  completion: { capability: ['completionProvider'], methods: ['textDocument/completion'] },
  hover: { capability: ['hoverProvider'], methods: ['textDocument/hover'] },
  signatureHelp: { capability: ['signatureHelpProvider'], methods: ['textDocument/signatureHelp'] },
  definition: { capability: ['definitionProvider'], methods: ['textDocument/definition'] },
  declaration: { capability: ['declarationProvider'], methods: ['textDocument/declaration'] },
  typeDefinition: { capability: ['typeDefinitionProvider'], methods: ['textDocument/typeDefinition'] },
  implementation: { capability: ['implementationProvider'], methods: ['textDocument/implementation'] },
  references: { capability: ['referencesProvider'], methods: ['textDocument/references'] },
  documentHighlight: { capability: ['documentHighlightProvider'], methods: ['textDocument/documentHighlight'] },
  documentSymbol: { capability: ['documentSymbolProvider'], methods: ['textDocument/documentSymbol'] },
  workspaceSymbol: { capability: ['workspaceSymbolProvider'], methods: ['workspace/symbol'] },
  codeAction: { capability: ['codeActionProvider'], methods: ['textDocument/codeAction'] },
  codeLens: { capability: ['codeLensProvider'], methods: ['textDocument/codeLens'] },
  documentLink: { capability: ['documentLinkProvider'], methods: ['textDocument/documentLink'] },
  color: { capability: ['colorProvider'], methods: ['textDocument/documentColor'] },
  formatting: { capability: ['documentFormattingProvider'], methods: ['textDocument/formatting'] },
  rangeFormatting: { capability: ['documentRangeFormattingProvider'], methods: ['textDocument/rangeFormatting'] },
  onTypeFormatting: { capability: ['documentOnTypeFormattingProvider'], methods: ['textDocument/onTypeFormatting'] },
  rename: { capability: ['renameProvider'], methods: ['textDocument/rename'] },
  foldingRange: { capability: ['foldingRangeProvider'], methods: ['textDocument/foldingRange'] },
  selectionRange: { capability: ['selectionRangeProvider'], methods: ['textDocument/selectionRange'] },
  linkedEditingRange: { capability: ['linkedEditingRangeProvider'], methods: ['textDocument/linkedEditingRange'] },
  callHierarchy: { capability: ['callHierarchyProvider'], methods: ['textDocument/prepareCallHierarchy'] },
  typeHierarchy: { capability: ['typeHierarchyProvider'], methods: ['textDocument/prepareTypeHierarchy'] },
  semanticTokens: { capability: ['semanticTokensProvider'], methods: ['textDocument/semanticTokens'] },
  inlayHint: { capability: ['inlayHintProvider'], methods: ['textDocument/inlayHint'] },
  diagnostic: { capability: ['diagnosticProvider'], methods: ['textDocument/diagnostic'] },
  executeCommand: { capability: ['executeCommandProvider'], methods: ['workspace/executeCommand'] },
  fileOperations: {
    capability: ['workspace', 'fileOperations'],
    methods: [
      'workspace/willCreateFiles',
      'workspace/didCreateFiles',
      'workspace/willRenameFiles',
      'workspace/didRenameFiles',
      'workspace/willDeleteFiles',
      'workspace/didDeleteFiles',
    ],
  },
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function at(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) node = isRecord(node) ? node[key] : undefined;
  return node;
}

/**
 * Whether a static capability value offers its feature. `false`, `null` and absence do not; some
 * fields are objects that can still offer nothing (semantic tokens with neither `full` nor
 * `range`, an executeCommand provider without commands, file operations without any operation).
 */
function offersStatically(feature: ServerFeature, value: unknown): boolean {
  if (value === true) return true;
  if (!isRecord(value)) return false;
  switch (feature) {
    case 'semanticTokens':
      return Boolean(value.full || value.range);
    case 'executeCommand':
      return Array.isArray(value.commands) && value.commands.length > 0;
    case 'fileOperations':
      return FILE_OPERATIONS.some((op) => isRecord(value[op]));
    default:
      return true;
  }
}

/**
 * The features a server offers: its `initialize` result's capabilities plus the registrations it
 * made (each `{ method }`, as `client/registerCapability` carries them), in SERVER_FEATURES order.
 */
export function offeredServerFeatures(capabilities: unknown, registrations: readonly unknown[]): ServerFeature[] {
  const registered = new Set(registrations.map((r) => (isRecord(r) && typeof r.method === 'string' ? r.method : '')));
  return SERVER_FEATURES.filter((feature) => {
    const source = SERVER_FEATURE_SOURCES[feature];
    return offersStatically(feature, at(capabilities, source.capability)) || source.methods.some((m) => registered.has(m));
  });
}
