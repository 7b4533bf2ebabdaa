/**
 * Whose request is it: the person's (they asked, or they are typing and wait for the answer) or
 * the editor's own background work (it keeps views fresh: tokens, the outline, folding, hints).
 * A language server answers one request at a time, so the scheduler (requestScheduler.ts) holds
 * background requests back while the person types or waits, and sends them once the person pauses.
 *
 * This is a table by method name, so a provider added later falls into its class by the method it
 * sends; a method not listed is neither held nor holds anything back.
 */
export type RequestClass = 'person' | 'background';

/** `textDocument/codeAction` and other methods whose class follows the LSP trigger kind in their params. */
export type ClassRule = RequestClass | 'by-trigger';

export const REQUEST_CLASSES: Readonly<Record<string, ClassRule>> = {
  // Asked by the person, who waits for the answer.
  'textDocument/completion': 'person',
  'completionItem/resolve': 'person',
  'textDocument/hover': 'person',
  'textDocument/signatureHelp': 'person',
  'textDocument/definition': 'person',
  'textDocument/declaration': 'person',
  'textDocument/typeDefinition': 'person',
  'textDocument/implementation': 'person',
  'textDocument/references': 'person',
  'textDocument/prepareRename': 'person',
  'textDocument/rename': 'person',
  'textDocument/formatting': 'person',
  'textDocument/rangeFormatting': 'person',
  'textDocument/rangesFormatting': 'person',
  'textDocument/onTypeFormatting': 'person',
  // Expand selection is a command the person runs and waits for.
  'textDocument/selectionRange': 'person',
  'textDocument/prepareCallHierarchy': 'person',
  'callHierarchy/incomingCalls': 'person',
  'callHierarchy/outgoingCalls': 'person',
  'textDocument/prepareTypeHierarchy': 'person',
  'typeHierarchy/supertypes': 'person',
  'typeHierarchy/subtypes': 'person',
  'textDocument/colorPresentation': 'person',
  'codeAction/resolve': 'person',
  'workspace/symbol': 'person',
  'workspaceSymbol/resolve': 'person',
  'workspace/executeCommand': 'person',
  // Asked by the person (quick fix, refactor menu) or by the editor when the caret rests (light bulb).
  'textDocument/codeAction': 'by-trigger',
  // The editor's own, to keep what is on screen fresh: it may arrive later.
  'textDocument/semanticTokens/full': 'background',
  'textDocument/semanticTokens/full/delta': 'background',
  'textDocument/semanticTokens/range': 'background',
  'textDocument/documentSymbol': 'background',
  'textDocument/foldingRange': 'background',
  'textDocument/inlayHint': 'background',
  'inlayHint/resolve': 'background',
  'textDocument/documentHighlight': 'background',
  'textDocument/diagnostic': 'background',
  'workspace/diagnostic': 'background',
  'textDocument/codeLens': 'background',
  'codeLens/resolve': 'background',
  'textDocument/documentLink': 'background',
  'documentLink/resolve': 'background',
  'textDocument/documentColor': 'background',
  'textDocument/linkedEditingRange': 'background',
  'textDocument/inlineValue': 'background',
  'textDocument/moniker': 'background',
};

/** Notifications that mean the person is typing (the text changed under their hands). */
export const TYPING_NOTIFICATIONS: ReadonlySet<string> = new Set(['textDocument/didChange']);

/** LSP CodeActionTriggerKind.Automatic: the editor asked on its own. */
const AUTOMATIC_TRIGGER = 2;

/** The class of one request, or undefined for a method the table does not know (left alone). */
export function requestClassOf(method: string, params: unknown): RequestClass | undefined {
  const rule = REQUEST_CLASSES[method];
  if (rule !== 'by-trigger') return rule;
  const context = typeof params === 'object' && params !== null ? (params as { context?: { triggerKind?: unknown } }).context : undefined;
  return context?.triggerKind === AUTOMATIC_TRIGGER ? 'background' : 'person';
}
