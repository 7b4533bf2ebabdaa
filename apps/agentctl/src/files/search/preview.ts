/** Search hits carry a bounded window of their line, so a minified file cannot flood an answer. */
export const PREVIEW_CHARS = 240;

export function preview(line: string, index: number): string {
  if (line.length <= PREVIEW_CHARS) return line;
  const start = Math.max(0, Math.min(index - 60, line.length - PREVIEW_CHARS));
  return line.slice(start, start + PREVIEW_CHARS);
}
