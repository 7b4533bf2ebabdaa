import { diffLines } from 'diff';

/** A run of lines of the current text as the gutter marks it against HEAD (1-based, inclusive). */
export type LineChange = { kind: 'added' | 'modified'; startLine: number; endLine: number } | { kind: 'deleted'; line: number };

/** Past this long a diff is given up (a huge rewrite): no marks rather than a stalled editor. */
const DIFF_TIMEOUT_MS = 250;

/**
 * Added, changed and deleted lines of `current` against `head`, as an editor gutter shows them:
 * a deletion replaced by lines is a change of those lines; a pure deletion marks the line after it
 * (the last line when it was at the end). Line endings and a missing final newline do not count.
 * Undefined when the diff took too long.
 */
export function lineChanges(head: string, current: string): LineChange[] | undefined {
  const parts = diffLines(head, current, { stripTrailingCr: true, ignoreNewlineAtEof: true, timeout: DIFF_TIMEOUT_MS });
  if (!parts) return undefined;
  const lastLine = Math.max(1, current.split('\n').length - (current.endsWith('\n') ? 1 : 0));
  const out: LineChange[] = [];
  let line = 1;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const count = part.count ?? 0;
    if (!part.added && !part.removed) {
      line += count;
    } else if (part.removed) {
      const next = parts[i + 1];
      if (next?.added) {
        const n = next.count ?? 0;
        out.push({ kind: 'modified', startLine: line, endLine: line + n - 1 });
        line += n;
        i++;
      } else {
        out.push({ kind: 'deleted', line: Math.min(line, lastLine) });
      }
    } else {
      out.push({ kind: 'added', startLine: line, endLine: line + count - 1 });
      line += count;
    }
  }
  return out;
}
