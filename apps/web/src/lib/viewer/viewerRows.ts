/**
 * The rows of the read-only viewer (phones): one per line, and a line longer than
 * `MAX_ROW_CHARS` as several rows. A minified bundle or a one-line JSON file of megabytes would
 * otherwise be one row holding all of it, which the virtual list cannot bound: the browser lays
 * out the whole text to draw the one row in view.
 */
export const MAX_ROW_CHARS = 1_000;

export interface ViewerRow {
  /** 1-based line number in the file. */
  line: number;
  text: string;
  /** A later piece of a long line (drawn without its number). */
  continued: boolean;
}

export function viewerRows(content: string, maxChars = MAX_ROW_CHARS): ViewerRow[] {
  const rows: ViewerRow[] = [];
  let line = 0;
  for (const text of content.split(/\r?\n/)) {
    line++;
    if (text.length <= maxChars) {
      rows.push({ line, text, continued: false });
      continue;
    }
    for (let start = 0; start < text.length;) {
      let end = Math.min(start + maxChars, text.length);
      // Never between the two halves of a surrogate pair (an emoji would show as two boxes).
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
      rows.push({ line, text: text.slice(start, end), continued: start > 0 });
      start = end;
    }
  }
  return rows;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
