import { describe, expect, it } from 'vitest';
import { DEFAULT_FINDING_LANGUAGES, DEMO_FINDINGS, FINDING_HEADERS, findingCells, medianOf, ratio, selectFindings, type FindingRow } from './findingRows.js';

const row = (over: Partial<FindingRow> = {}): FindingRow => ({
  language: 'typescript',
  file: 'src/main.ts',
  load: 1.234,
  firstUseMs: 3300,
  coldMs: [3100, 2900, 3000],
  stdioMs: [2600, 2400],
  warmMs: [400],
  missing: 0,
  ...over,
});

describe('findings bench rows', () => {
  it('takes the true median: the middle value, or the mean of the two middle ones, whatever the order', () => {
    expect(medianOf([])).toBeUndefined();
    expect(medianOf([5])).toBe(5);
    expect(medianOf([9, 1, 5])).toBe(5);
    expect(medianOf([10, 2, 4, 8])).toBe(6);
  });

  it('prints the product beside the server alone with the ratio, and the load as the row began', () => {
    const cells = findingCells(row());
    expect(cells).toHaveLength(FINDING_HEADERS.length);
    const at = (header: string, nth = 0) => cells[FINDING_HEADERS.indexOf(header, nth)];
    expect(at('load')).toBe('1.23');
    expect(at('stdio from spawn')).toBe('2500');
    expect(at('cold')).toBe('3000');
    expect(at('cold / stdio')).toBe('1.20x');
    expect(at('first use')).toBe('3300');
    expect(at('first use / stdio')).toBe('1.32x');
    expect(at('warm')).toBe('400');
    expect(at('missing')).toBe('0');
  });

  it('prints "-" for a figure never measured, and no ratio without both figures', () => {
    const cells = findingCells(row({ firstUseMs: undefined, coldMs: [], stdioMs: [], warmMs: [], missing: 3 }));
    expect(cells.slice(3)).toEqual(['-', '-', '-', '-', '-', '-', '3']);
    expect(ratio(1000, 0)).toBe('-');
  });

  it('measures a bounded default set unless told otherwise, every demo file with "all", and refuses an unknown language', () => {
    expect(selectFindings(undefined).map((d) => d.language)).toEqual([...DEFAULT_FINDING_LANGUAGES]);
    expect(selectFindings(' ').map((d) => d.language)).toEqual([...DEFAULT_FINDING_LANGUAGES]);
    expect(selectFindings('all')).toEqual(DEMO_FINDINGS);
    expect(selectFindings('Go, typescript').map((d) => d.file)).toEqual(['src/main.ts', 'main.go']);
    expect(() => selectFindings('typescript,cobol')).toThrow(/no demo file for cobol; known: typescript, python/);
  });

  it('lists one demo file per language, each a file of the demo workspace', async () => {
    const { existsSync } = await import('node:fs');
    const { join } = await import('node:path');
    const demo = join(import.meta.dirname, '../demo/workspace');
    expect(new Set(DEMO_FINDINGS.map((d) => d.language)).size).toBe(DEMO_FINDINGS.length);
    for (const d of DEMO_FINDINGS) expect(existsSync(join(demo, d.file)), d.file).toBe(true);
  });
});
