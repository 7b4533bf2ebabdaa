import type { Position, Range, TextEdit } from 'vscode-languageserver-protocol';

/** Start offsets of every line (after each `\n`), so positions map to string offsets. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** An LSP position (UTF-16 character) -> an offset, clamped to its line as LSP says to. */
export function offsetAt(text: string, starts: number[], position: Position): number {
  if (position.line >= starts.length) return text.length;
  const start = starts[Math.max(0, position.line)] as number;
  const next = position.line + 1 < starts.length ? (starts[position.line + 1] as number) - 1 : text.length;
  // A line's end excludes its `\n` (and a `\r` before it).
  const end = next > start && text.charCodeAt(next - 1) === 13 && next < text.length ? next - 1 : next;
  return Math.min(start + Math.max(0, position.character), end);
}

export class OverlappingEditsError extends Error {
  constructor() {
    super('text edits overlap');
    this.name = 'OverlappingEditsError';
  }
}

/**
 * Applies LSP TextEdits (all relative to the original text) to a string. Edits at the same
 * position apply in the order given; overlapping edits are refused, as the LSP spec forbids them.
 */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const starts = lineStarts(text);
  const resolved = edits.map((edit, index) => ({
    start: offsetAt(text, starts, edit.range.start),
    end: offsetAt(text, starts, edit.range.end),
    text: edit.newText,
    index,
  }));
  resolved.sort((a, b) => a.start - b.start || a.end - b.end || a.index - b.index);
  for (let i = 1; i < resolved.length; i++) {
    if ((resolved[i] as { start: number }).start < (resolved[i - 1] as { end: number }).end) throw new OverlappingEditsError();
  }
  let out = '';
  let cursor = 0;
  for (const edit of resolved) {
    out += text.slice(cursor, edit.start) + edit.text;
    cursor = Math.max(cursor, edit.end);
  }
  return out + text.slice(cursor);
}

export function isTextEdit(value: unknown): value is TextEdit {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as { range?: Range; newText?: unknown };
  return typeof e.newText === 'string' && typeof e.range?.start?.line === 'number' && typeof e.range.end?.line === 'number';
}
