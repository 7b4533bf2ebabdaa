/**
 * Numeric values of the Monaco enums the mappers produce, mirrored so mapping code runs (and is
 * tested) in Node without loading monaco-editor. monacoEnums.test.ts checks every value against
 * monaco-editor's own declarations, so an upgrade that renumbers them fails loudly.
 */
export const MonacoCompletionItemKind = {
  Method: 0,
  Function: 1,
  Constructor: 2,
  Field: 3,
  Variable: 4,
  Class: 5,
  Struct: 6,
  Interface: 7,
  Module: 8,
  Property: 9,
  Event: 10,
  Operator: 11,
  Unit: 12,
  Value: 13,
  Constant: 14,
  Enum: 15,
  EnumMember: 16,
  Keyword: 17,
  Text: 18,
  Color: 19,
  File: 20,
  Reference: 21,
  Customcolor: 22,
  Folder: 23,
  TypeParameter: 24,
  User: 25,
  Issue: 26,
  Tool: 27,
  Snippet: 28,
} as const;

export const MonacoCompletionItemInsertTextRule = { None: 0, KeepWhitespace: 1, InsertAsSnippet: 4 } as const;
export const MonacoCompletionItemTag = { Deprecated: 1 } as const;
export const MonacoCompletionTriggerKind = { Invoke: 0, TriggerCharacter: 1, TriggerForIncompleteCompletions: 2 } as const;
export const MonacoSignatureHelpTriggerKind = { Invoke: 1, TriggerCharacter: 2, ContentChange: 3 } as const;
export const MonacoMarkerSeverity = { Hint: 1, Info: 2, Warning: 4, Error: 8 } as const;
export const MonacoMarkerTag = { Unnecessary: 1, Deprecated: 2 } as const;
export const MonacoDocumentHighlightKind = { Text: 0, Read: 1, Write: 2 } as const;
export const MonacoInlayHintKind = { Type: 1, Parameter: 2 } as const;
export const MonacoCodeActionTriggerType = { Invoke: 1, Auto: 2 } as const;
