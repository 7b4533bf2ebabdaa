import type * as Monaco from 'monaco-editor';
import type { CompletionContext, CompletionItem, CompletionList, InsertReplaceEdit, Range, TextEdit } from 'vscode-languageserver-protocol';
import { markKandevProvider } from '../builtins.js';
import type { FeatureRegistration } from '../capabilities.js';
import type { Disposable } from '@kandev/kit';
import { toDocumentation } from './markdown.js';
import { MonacoCompletionItemInsertTextRule, MonacoCompletionItemKind, MonacoCompletionItemTag, MonacoCompletionTriggerKind } from './monacoEnums.js';
import type { ProviderHost } from './host.js';
import { isLspRange, toLspPosition, toMonacoRange } from './ranges.js';

type MonacoCompletionItem = Monaco.languages.CompletionItem;
type MonacoCompletionList = Monaco.languages.CompletionList;

/** LSP CompletionItemKind (1..25, by name) -> Monaco CompletionItemKind. */
export const LSP_COMPLETION_KIND_NAMES = [
  'Text',
  'Method',
  'Function',
  'Constructor',
  'Field',
  'Variable',
  'Class',
  'Interface',
  'Module',
  'Property',
  'Unit',
  'Value',
  'Enum',
  'Keyword',
  'Snippet',
  'Color',
  'File',
  'Reference',
  'Folder',
  'EnumMember',
  'Constant',
  'Struct',
  'Event',
  'Operator',
  'TypeParameter',
] as const;

export function toMonacoCompletionKind(kind: number | undefined): Monaco.languages.CompletionItemKind {
  const name = kind === undefined ? undefined : LSP_COMPLETION_KIND_NAMES[kind - 1];
  const value = name ? MonacoCompletionItemKind[name] : MonacoCompletionItemKind.Text;
  return value as Monaco.languages.CompletionItemKind;
}

/** Monaco trigger kinds 0/1/2 -> LSP 1 (Invoked) / 2 (TriggerCharacter, with the character) / 3 (incomplete). */
export function toLspCompletionContext(context: { triggerKind: number; triggerCharacter?: string }): CompletionContext {
  switch (context.triggerKind) {
    case MonacoCompletionTriggerKind.TriggerCharacter:
      return context.triggerCharacter ? { triggerKind: 2, triggerCharacter: context.triggerCharacter } : { triggerKind: 1 };
    case MonacoCompletionTriggerKind.TriggerForIncompleteCompletions:
      return { triggerKind: 3 };
    default:
      return { triggerKind: 1 };
  }
}

type EditRange = Range | { insert: Range; replace: Range };

function toMonacoEditRange(range: EditRange): Monaco.IRange | Monaco.languages.CompletionItemRanges {
  if ('insert' in range && 'replace' in range) return { insert: toMonacoRange(range.insert), replace: toMonacoRange(range.replace) };
  return toMonacoRange(range as Range);
}

function isInsertReplaceEdit(edit: TextEdit | InsertReplaceEdit): edit is InsertReplaceEdit {
  return 'insert' in edit && 'replace' in edit && isLspRange(edit.insert) && isLspRange(edit.replace);
}

export type ItemDefaults = NonNullable<CompletionList['itemDefaults']>;

/**
 * One LSP item -> one Monaco item. Range precedence (S22): the item's TextEdit (single range) or
 * InsertReplaceEdit (insert + replace), then the list's default editRange, then the current word
 * at the requested position.
 */
export function toMonacoCompletionItem(item: CompletionItem, wordRange: Monaco.IRange, defaults: ItemDefaults | undefined): MonacoCompletionItem {
  let range: Monaco.IRange | Monaco.languages.CompletionItemRanges = wordRange;
  let insertText = item.insertText ?? item.label;
  if (item.textEdit) {
    insertText = item.textEdit.newText;
    range = isInsertReplaceEdit(item.textEdit) ? toMonacoEditRange(item.textEdit) : toMonacoEditRange((item.textEdit as TextEdit).range);
  } else if (defaults?.editRange) {
    insertText = item.textEditText ?? item.insertText ?? item.label;
    range = toMonacoEditRange(defaults.editRange as EditRange);
  }
  const format = item.insertTextFormat ?? defaults?.insertTextFormat;
  const mode = item.insertTextMode ?? defaults?.insertTextMode;
  let rules: number = MonacoCompletionItemInsertTextRule.None;
  if (format === 2) rules |= MonacoCompletionItemInsertTextRule.InsertAsSnippet;
  if (mode === 2) rules |= MonacoCompletionItemInsertTextRule.KeepWhitespace;

  const out: MonacoCompletionItem = {
    label: item.labelDetails ? { label: item.label, detail: item.labelDetails.detail, description: item.labelDetails.description } : item.label,
    kind: toMonacoCompletionKind(item.kind),
    insertText,
    range,
  };
  if (rules !== MonacoCompletionItemInsertTextRule.None) out.insertTextRules = rules as Monaco.languages.CompletionItemInsertTextRule;
  if (item.deprecated === true || item.tags?.includes(1)) out.tags = [MonacoCompletionItemTag.Deprecated as Monaco.languages.CompletionItemTag];
  if (item.detail !== undefined) out.detail = item.detail;
  const documentation = toDocumentation(item.documentation);
  if (documentation !== undefined) out.documentation = documentation;
  if (item.sortText !== undefined) out.sortText = item.sortText;
  if (item.filterText !== undefined) out.filterText = item.filterText;
  if (item.preselect !== undefined) out.preselect = item.preselect;
  const commit = item.commitCharacters ?? defaults?.commitCharacters;
  if (commit) out.commitCharacters = [...commit];
  if (item.additionalTextEdits?.length) out.additionalTextEdits = item.additionalTextEdits.map((e) => ({ range: toMonacoRange(e.range), text: e.newText }));
  return out;
}

/** The LSP item to send to completionItem/resolve: the original, with list defaults applied to data. */
export function withItemDefaults(item: CompletionItem, defaults: ItemDefaults | undefined): CompletionItem {
  if (item.data === undefined && defaults?.data !== undefined) return { ...item, data: defaults.data };
  return item;
}

/** A completion result -> Monaco's list, keeping `isIncomplete` so Monaco asks again with kind 3 (S19). */
export function toMonacoCompletionList(
  result: CompletionList | CompletionItem[] | null | undefined,
  wordRange: Monaco.IRange,
): { list: MonacoCompletionList; origins: CompletionItem[] } {
  if (!result) return { list: { suggestions: [] }, origins: [] };
  const items = Array.isArray(result) ? result : Array.isArray(result.items) ? result.items : [];
  const defaults = Array.isArray(result) ? undefined : result.itemDefaults;
  const suggestions = items.map((item) => toMonacoCompletionItem(item, wordRange, defaults));
  const list: MonacoCompletionList = { suggestions };
  if (!Array.isArray(result) && result.isIncomplete === true) list.incomplete = true;
  return { list, origins: items.map((item) => withItemDefaults(item, defaults)) };
}

/** Merges what completionItem/resolve added into the Monaco item (documentation, detail, extra edits). */
export function applyResolvedItem(target: MonacoCompletionItem, resolved: CompletionItem): MonacoCompletionItem {
  if (resolved.detail !== undefined) target.detail = resolved.detail;
  const documentation = toDocumentation(resolved.documentation);
  if (documentation !== undefined) target.documentation = documentation;
  if (resolved.additionalTextEdits?.length)
    target.additionalTextEdits = resolved.additionalTextEdits.map((e) => ({ range: toMonacoRange(e.range), text: e.newText }));
  return target;
}

/** Registers one completion source: trigger characters as advertised (S20), resolve only with resolveProvider. */
export function registerCompletionProvider(host: ProviderHost, registration: FeatureRegistration<'completion'>): Disposable {
  const options = registration.options;
  const origins = new WeakMap<MonacoCompletionItem, CompletionItem>();
  const provider: Monaco.languages.CompletionItemProvider = {
    triggerCharacters: [...(options.triggerCharacters ?? [])],
    async provideCompletionItems(model, position, context, token) {
      const target = host.target(model, registration);
      if (!target) return undefined;
      host.context.flush(target.path);
      const word = model.getWordUntilPosition(position);
      const wordRange = { startLineNumber: position.lineNumber, startColumn: word.startColumn, endLineNumber: position.lineNumber, endColumn: word.endColumn };
      let result: CompletionList | CompletionItem[] | null;
      const sentAt = host.context.clock.now();
      const recordWordList = (cancelled: boolean) => {
        if (context.triggerKind !== MonacoCompletionTriggerKind.TriggerCharacter) host.recordWordList(model, host.context.clock.now() - sentAt, cancelled);
      };
      try {
        result = await host.context.request(
          'textDocument/completion',
          {
            textDocument: { uri: target.uri },
            position: toLspPosition(position),
            context: toLspCompletionContext(context),
          },
          token,
        );
      } catch {
        recordWordList(token.isCancellationRequested);
        return undefined;
      }
      recordWordList(token.isCancellationRequested);
      const { list, origins: lspItems } = toMonacoCompletionList(result, wordRange);
      list.suggestions.forEach((s, i) => origins.set(s, lspItems[i] as CompletionItem));
      return list;
    },
  };
  if (options.resolveProvider) {
    provider.resolveCompletionItem = async (item, token) => {
      const original = origins.get(item);
      if (!original) return item;
      try {
        const resolved = await host.context.request<CompletionItem | null>('completionItem/resolve', original, token);
        return resolved ? applyResolvedItem(item, resolved) : item;
      } catch {
        return item;
      }
    };
  }
  const registered = host.languages.registerCompletionItemProvider(host.selector, markKandevProvider(provider));
  const served = host.serveWordLists();
  return {
    dispose() {
      registered.dispose();
      served.dispose();
    },
  };
}
