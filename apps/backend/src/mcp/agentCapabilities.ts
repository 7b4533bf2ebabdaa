/**
 * What an agent's LSP client declares in `initialize`. Watched files with dynamic registration, so
 * the server registers its watchers and the live workspace (agentctl) tells it of disk changes;
 * work-done progress, so indexing is visible and tools can wait on it; diagnostics are pushed (a server that
 * offers pull diagnostics anyway is also asked, and the two are merged).
 */
export const AGENT_CLIENT_CAPABILITIES = {
  workspace: {
    configuration: true,
    workspaceFolders: true,
    didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
    symbol: { dynamicRegistration: false },
    workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'] },
    applyEdit: false,
  },
  textDocument: {
    synchronization: { dynamicRegistration: true, didSave: false },
    hover: { contentFormat: ['plaintext', 'markdown'] },
    definition: { linkSupport: false },
    implementation: { linkSupport: false },
    references: {},
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    callHierarchy: {},
    codeAction: {
      codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor', 'source'] } },
      resolveSupport: { properties: ['edit'] },
      dataSupport: true,
    },
    rename: { prepareSupport: true },
    publishDiagnostics: { versionSupport: true, relatedInformation: false },
  },
  window: { workDoneProgress: true },
  general: { positionEncodings: ['utf-16'] },
} as const;
