import type { IMarkdownString } from 'monaco-editor';
import type { MarkedString, MarkupContent } from 'vscode-languageserver-protocol';

/** Escapes text so Monaco's markdown renderer shows it literally. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

/** MarkupContent, a MarkedString ({language, value} or markdown text) or plain string -> Monaco markdown. */
export function toMarkdown(content: MarkupContent | MarkedString | string | null | undefined): IMarkdownString | undefined {
  if (content === null || content === undefined) return undefined;
  if (typeof content === 'string') return content.trim() ? { value: content } : undefined;
  if ('kind' in content) {
    if (!content.value.trim()) return undefined;
    return content.kind === 'markdown' ? { value: content.value } : { value: escapeMarkdown(content.value) };
  }
  if ('language' in content && typeof content.value === 'string') {
    if (!content.value.trim()) return undefined;
    return { value: `\`\`\`${content.language}\n${content.value}\n\`\`\`` };
  }
  return undefined;
}

/** Documentation as Monaco takes it: plain strings stay plain. */
export function toDocumentation(doc: string | MarkupContent | undefined): string | IMarkdownString | undefined {
  if (doc === undefined || doc === null) return undefined;
  if (typeof doc === 'string') return doc;
  return toMarkdown(doc);
}
