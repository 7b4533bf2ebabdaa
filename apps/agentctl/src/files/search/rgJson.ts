import type { SearchHit } from '@kandev/protocol';
import { preview } from './preview.js';

/** ripgrep's `--json` carries text as `{"text"}` or, when not valid UTF-8, as `{"bytes": base64}`. */
type RgData = { text: string } | { bytes: string };

interface RgMatch {
  type: 'match';
  data: {
    path: RgData;
    lines: RgData;
    line_number: number;
    submatches: Array<{ start: number; end: number }>;
  };
}

function bytesOf(data: RgData | undefined): Buffer | undefined {
  if (!data || typeof data !== 'object') return undefined;
  if ('text' in data && typeof data.text === 'string') return Buffer.from(data.text, 'utf8');
  if ('bytes' in data && typeof data.bytes === 'string') return Buffer.from(data.bytes, 'base64');
  return undefined;
}

function isMatch(value: unknown): value is RgMatch {
  if (typeof value !== 'object' || value === null || (value as { type?: unknown }).type !== 'match') return false;
  const data = (value as { data?: unknown }).data as RgMatch['data'] | undefined;
  return typeof data === 'object' && data !== null && typeof data.line_number === 'number' && Array.isArray(data.submatches);
}

/**
 * The hits in one line of `rg --json` output (only `match` messages carry any). ripgrep reports
 * byte offsets into the line; hits carry 1-based UTF-16 columns as Monaco counts them. A path that
 * is not valid UTF-8 cannot be opened by name through the files API, so its matches are dropped;
 * so is anything that is not a well-formed match message.
 */
export function hitsFromRgLine(line: string): SearchHit[] {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return [];
  }
  if (!isMatch(message)) return [];
  const { path, lines, line_number: lineNumber, submatches } = message.data;
  if (!('text' in path) || typeof path.text !== 'string') return [];
  const rel = path.text.replace(/^\.\//, '');
  const bytes = bytesOf(lines);
  if (!bytes) return [];
  const text = bytes.toString('utf8').replace(/\r?\n$/, '');
  const hits: SearchHit[] = [];
  for (const submatch of submatches) {
    if (typeof submatch?.start !== 'number' || submatch.start < 0 || submatch.start > bytes.length) continue;
    const column = bytes.subarray(0, submatch.start).toString('utf8').length;
    hits.push({ path: rel, line: lineNumber, column: column + 1, preview: preview(text, column) });
  }
  return hits;
}
