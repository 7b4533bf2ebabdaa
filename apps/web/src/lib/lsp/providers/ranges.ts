import type { IRange } from 'monaco-editor';
import type { Position, Range } from 'vscode-languageserver-protocol';

/** LSP positions are 0-based (line, UTF-16 character); Monaco's are 1-based (line, column). */
export function toMonacoRange(range: Range): IRange {
  return {
    startLineNumber: range.start.line + 1,
    startColumn: range.start.character + 1,
    endLineNumber: range.end.line + 1,
    endColumn: range.end.character + 1,
  };
}

export function toLspPosition(position: { lineNumber: number; column: number }): Position {
  return { line: position.lineNumber - 1, character: position.column - 1 };
}

export function isLspRange(value: unknown): value is Range {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as { start?: { line?: unknown; character?: unknown }; end?: { line?: unknown; character?: unknown } };
  return typeof r.start?.line === 'number' && typeof r.start.character === 'number' && typeof r.end?.line === 'number' && typeof r.end.character === 'number';
}
