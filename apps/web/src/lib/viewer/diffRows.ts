import { diffLines } from 'diff';
import { viewerRows } from './viewerRows.js';

/** One row of the phone's read-only diff: a line both sides share, or one only HEAD or only the disk has. */
export interface DiffRow {
  kind: 'same' | 'added' | 'removed';
  /** 1-based line number in HEAD (absent on an added line or a later piece of a long line). */
  headLine?: number;
  /** 1-based line number in the working tree (absent on a removed line or a later piece). */
  line?: number;
  text: string;
}

/** Past this long a diff is given up (a huge rewrite): a note rather than a stalled phone. */
const DIFF_TIMEOUT_MS = 500;

function linesOf(value: string): string[] {
  const lines = value.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * The unified diff of the working-tree text against HEAD, one row per line (a long line as several
 * rows, as the viewer draws it). Undefined when the diff took too long.
 */
export function diffRows(head: string, current: string): DiffRow[] | undefined {
  const parts = diffLines(head, current, { stripTrailingCr: true, ignoreNewlineAtEof: true, timeout: DIFF_TIMEOUT_MS });
  if (!parts) return undefined;
  const rows: DiffRow[] = [];
  let headLine = 1;
  let line = 1;
  for (const part of parts) {
    const kind = part.added ? 'added' : part.removed ? 'removed' : 'same';
    for (const text of linesOf(part.value)) {
      for (const piece of viewerRows(text)) {
        const first = !piece.continued;
        rows.push({
          kind,
          ...(first && kind !== 'added' ? { headLine } : {}),
          ...(first && kind !== 'removed' ? { line } : {}),
          text: piece.text,
        });
      }
      if (kind !== 'added') headLine++;
      if (kind !== 'removed') line++;
    }
  }
  return rows;
}
