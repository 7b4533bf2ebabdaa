import type { ClientCapabilities } from 'vscode-languageserver-protocol';

/** Standard semantic token types and modifiers (LSP 3.17); the server's legend picks from these. */
export const SEMANTIC_TOKEN_TYPES = [
  'namespace',
  'type',
  'class',
  'enum',
  'interface',
  'struct',
  'typeParameter',
  'parameter',
  'variable',
  'property',
  'enumMember',
  'event',
  'function',
  'method',
  'macro',
  'keyword',
  'modifier',
  'comment',
  'string',
  'number',
  'regexp',
  'operator',
  'decorator',
];
export const SEMANTIC_TOKEN_MODIFIERS = [
  'declaration',
  'definition',
  'readonly',
  'static',
  'deprecated',
  'abstract',
  'async',
  'modification',
  'documentation',
  'defaultLibrary',
];

const ALL_COMPLETION_KINDS = Array.from({ length: 25 }, (_, i) => i + 1);
const ALL_SYMBOL_KINDS = Array.from({ length: 26 }, (_, i) => i + 1) as SymbolKinds;
/** Code action kinds the light bulb groups by (the server may send others; they still show). */
export const CODE_ACTION_KINDS = [
  '',
  'quickfix',
  'refactor',
  'refactor.extract',
  'refactor.inline',
  'refactor.rewrite',
  'source',
  'source.organizeImports',
  'source.fixAll',
];

/** `workspace.diagnostic.refreshSupport`: outside ClientCapabilities' type, as it is outside the spec. */
const SINGULAR_DIAGNOSTIC_REFRESH: object = { diagnostic: { refreshSupport: true } };

/** What one server is told differently from the rest (its language's ServerRule says why). */
export interface ClientCapabilityOptions {
  /** false: pull diagnostics are declared without dynamic registration (static registration is still followed). */
  dynamicPullDiagnostics?: boolean;
}

/**
 * What this client really does, and nothing more. dynamicRegistration is true only for what
 * the capability index and provider registration handle (every feature of capabilities.ts,
 * document synchronization, and executeCommand).
 */
export function clientCapabilities(options: ClientCapabilityOptions = {}): ClientCapabilities {
  return {
    general: { positionEncodings: ['utf-16'] },
    window: { workDoneProgress: true },
    workspace: {
      configuration: true,
      // The folders of the initialize params, answered by the broker (they never change). Servers built
      // on vscode-languageserver that see dynamic watched-files registration (yaml-language-server)
      // subscribe to folder changes in their `initialized` handler, which throws without this and
      // skips the rest of it, workspace/configuration included: the user's schemas were never read.
      workspaceFolders: true,
      semanticTokens: { refreshSupport: true },
      // Workspace edits are applied atomically (docs/editing.md): all or nothing.
      applyEdit: true,
      // Annotations that need confirmation are listed in a dialog before anything is applied.
      workspaceEdit: {
        documentChanges: true,
        resourceOperations: ['create', 'rename', 'delete'],
        failureHandling: 'abort',
        changeAnnotationSupport: { groupsOnLabel: false },
      },
      // Sent for the resource operations of WorkspaceEdits (docs/editing.md); the Files panel has no file actions.
      // Served on the task host, not here: agentctl's workspace watcher matches the server's
      // registered watchers and sends it the notification itself, attached browser or not.
      didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
      fileOperations: { dynamicRegistration: true, willCreate: true, didCreate: true, willRename: true, didRename: true, willDelete: true, didDelete: true },
      symbol: { dynamicRegistration: true, symbolKind: { valueSet: ALL_SYMBOL_KINDS }, resolveSupport: { properties: ['location.range'] } },
      executeCommand: { dynamicRegistration: true },
      diagnostics: { refreshSupport: true },
      // The same under the singular key, which LSP 3.17 does not name: servers built on Rust's
      // lsp-types (tower-lsp) read `workspace.diagnostic`, and without it never send the refresh.
      // Such a server answers a pull that arrives while it is still loading its configuration with
      // an empty report and relies on the refresh to be asked again; without it those findings
      // never show until the document is edited.
      ...SINGULAR_DIAGNOSTIC_REFRESH,
      inlayHint: { refreshSupport: true },
      // Lenses are asked again for every shown model of the connection (providers/codeLens.ts).
      codeLens: { refreshSupport: true },
    },
    textDocument: {
      synchronization: { dynamicRegistration: true, didSave: true, willSave: false, willSaveWaitUntil: false },
      completion: {
        dynamicRegistration: true,
        contextSupport: true,
        completionItem: {
          snippetSupport: true,
          insertReplaceSupport: true,
          labelDetailsSupport: true,
          deprecatedSupport: true,
          preselectSupport: true,
          commitCharactersSupport: true,
          tagSupport: { valueSet: [1] },
          documentationFormat: ['markdown', 'plaintext'],
          resolveSupport: { properties: ['documentation', 'detail', 'additionalTextEdits'] },
        },
        completionItemKind: { valueSet: ALL_COMPLETION_KINDS as ClientCapabilitiesCompletionKinds },
        completionList: { itemDefaults: ['commitCharacters', 'editRange', 'insertTextFormat', 'data'] },
      },
      hover: { dynamicRegistration: true, contentFormat: ['markdown', 'plaintext'] },
      signatureHelp: {
        dynamicRegistration: true,
        contextSupport: true,
        signatureInformation: {
          documentationFormat: ['markdown', 'plaintext'],
          parameterInformation: { labelOffsetSupport: true },
          activeParameterSupport: true,
        },
      },
      definition: { dynamicRegistration: true, linkSupport: true },
      references: { dynamicRegistration: true },
      // Go to / Peek Implementations, Type Definition and Declaration, and the hierarchy panel (docs/editing.md).
      implementation: { dynamicRegistration: true, linkSupport: true },
      typeDefinition: { dynamicRegistration: true, linkSupport: true },
      declaration: { dynamicRegistration: true, linkSupport: true },
      callHierarchy: { dynamicRegistration: true },
      typeHierarchy: { dynamicRegistration: true },
      semanticTokens: {
        dynamicRegistration: true,
        requests: { full: { delta: true }, range: true },
        tokenTypes: SEMANTIC_TOKEN_TYPES,
        tokenModifiers: SEMANTIC_TOKEN_MODIFIERS,
        formats: ['relative'],
        overlappingTokenSupport: false,
        multilineTokenSupport: false,
        augmentsSyntaxTokens: true,
      },
      documentSymbol: {
        dynamicRegistration: true,
        hierarchicalDocumentSymbolSupport: true,
        symbolKind: { valueSet: ALL_SYMBOL_KINDS },
        tagSupport: { valueSet: [1] },
      },
      rename: { dynamicRegistration: true, prepareSupport: true },
      codeAction: {
        dynamicRegistration: true,
        codeActionLiteralSupport: { codeActionKind: { valueSet: CODE_ACTION_KINDS } },
        isPreferredSupport: true,
        disabledSupport: true,
        dataSupport: true,
        resolveSupport: { properties: ['edit', 'command'] },
      },
      formatting: { dynamicRegistration: true },
      rangeFormatting: { dynamicRegistration: true },
      onTypeFormatting: { dynamicRegistration: true },
      documentHighlight: { dynamicRegistration: true },
      foldingRange: { dynamicRegistration: true, lineFoldingOnly: false, foldingRangeKind: { valueSet: ['comment', 'imports', 'region'] } },
      inlayHint: { dynamicRegistration: true, resolveSupport: { properties: ['tooltip', 'textEdits', 'label.tooltip', 'label.location'] } },
      diagnostic: { dynamicRegistration: options.dynamicPullDiagnostics ?? true, relatedDocumentSupport: true },
      // Reading features (docs/editing.md)
      codeLens: { dynamicRegistration: true },
      documentLink: { dynamicRegistration: true, tooltipSupport: true },
      colorProvider: { dynamicRegistration: true },
      selectionRange: { dynamicRegistration: true },
      linkedEditingRange: { dynamicRegistration: true },
      publishDiagnostics: {
        relatedInformation: true,
        versionSupport: true,
        tagSupport: { valueSet: [1, 2] },
        codeDescriptionSupport: true,
      },
    },
  };
}

type SymbolKinds = NonNullable<NonNullable<NonNullable<NonNullable<ClientCapabilities['textDocument']>['documentSymbol']>['symbolKind']>['valueSet']>;
type ClientCapabilitiesCompletionKinds = NonNullable<
  NonNullable<NonNullable<ClientCapabilities['textDocument']>['completion']>['completionItemKind']
>['valueSet'];
