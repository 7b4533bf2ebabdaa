import { LARGE_FILE_BYTES, LARGE_FILE_LINES, MAX_OPEN_FILE_BYTES } from '@kandev/protocol';

/** A file opened in large-file mode, and why: its size or its number of lines. */
export interface LargeFile {
  reason: 'size' | 'lines';
  /** Characters of its text (about its bytes for the ASCII-heavy files this concerns). */
  size: number;
  lines: number;
}

/**
 * Whether a file's text is large enough for large-file mode (as VS Code turns features off for big
 * files): above LARGE_FILE_BYTES or LARGE_FILE_LINES the editor opens it without language-server
 * sync, syntax colouring, folding or word suggestions, and says so. Counting is one pass, no copy.
 */
export function largeFileOf(text: string): LargeFile | undefined {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  if (text.length > LARGE_FILE_BYTES) return { reason: 'size', size: text.length, lines };
  if (lines > LARGE_FILE_LINES) return { reason: 'lines', size: text.length, lines };
  return undefined;
}

/** The file is larger than the editor opens (the files API answered 413 too_large). */
export class FileTooLargeError extends Error {
  readonly limit = MAX_OPEN_FILE_BYTES;
  constructor(readonly path: string) {
    super(`file too large: ${path}`);
    this.name = 'FileTooLargeError';
  }
}

/** Sizes in the copy: MiB with one decimal, as people read file sizes. */
export function mebibytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}
