import { describe, expect, it } from 'vitest';
import { hitsFromRgLine } from './rgJson.js';

const match = (data: Record<string, unknown>) =>
  JSON.stringify({
    type: 'match',
    data: {
      path: { text: 'src/a.ts' },
      line_number: 3,
      lines: { text: 'const needle = 1;\n' },
      submatches: [{ match: { text: 'needle' }, start: 6, end: 12 }],
      ...data,
    },
  });

describe('ripgrep --json output', () => {
  it('a match line becomes 1-based hits, one per submatch, with the line as preview', () => {
    expect(
      hitsFromRgLine(
        match({
          submatches: [
            { start: 6, end: 12 },
            { start: 0, end: 5 },
          ],
        }),
      ),
    ).toEqual([
      { path: 'src/a.ts', line: 3, column: 7, preview: 'const needle = 1;' },
      { path: 'src/a.ts', line: 3, column: 1, preview: 'const needle = 1;' },
    ]);
  });

  it('byte offsets become UTF-16 columns, as Monaco counts them', () => {
    const text = 'é😀 needle\r\n'; // é: 2 bytes / 1 unit; 😀: 4 bytes / 2 units
    const start = Buffer.byteLength('é😀 ');
    expect(hitsFromRgLine(match({ lines: { text }, submatches: [{ start, end: start + 6 }] }))).toEqual([
      { path: 'src/a.ts', line: 3, column: 5, preview: 'é😀 needle' },
    ]);
  });

  it('lines that are not valid UTF-8 arrive as base64 bytes and still give a hit', () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0x20]), Buffer.from('needle\n')]);
    const [hit] = hitsFromRgLine(match({ lines: { bytes: bytes.toString('base64') }, submatches: [{ start: 2, end: 8 }] }));
    expect(hit).toMatchObject({ line: 3, column: 3 });
  });

  it('a long line is previewed around the match, bounded', () => {
    const text = `${'x'.repeat(10_000)}needle${'y'.repeat(10_000)}\n`;
    const [hit] = hitsFromRgLine(match({ lines: { text }, submatches: [{ start: 10_000, end: 10_006 }] }));
    expect(hit!.column).toBe(10_001);
    expect(hit!.preview.length).toBe(240);
    expect(hit!.preview).toContain('needle');
  });

  it('begin, end, summary, non-UTF-8 paths and garbage give nothing', () => {
    expect(hitsFromRgLine(JSON.stringify({ type: 'begin', data: { path: { text: 'a' } } }))).toEqual([]);
    expect(hitsFromRgLine(JSON.stringify({ type: 'summary', data: {} }))).toEqual([]);
    expect(hitsFromRgLine(match({ path: { bytes: Buffer.from([0xff]).toString('base64') } }))).toEqual([]);
    expect(hitsFromRgLine('{"type":"match"')).toEqual([]);
    expect(hitsFromRgLine(JSON.stringify({ type: 'match', data: { path: { text: 'a' } } }))).toEqual([]);
  });
});
