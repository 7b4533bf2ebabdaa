import { describe, expect, it } from 'vitest';
import { monacoLanguageForPath } from './languages.js';
import { toLspContentChanges } from './modelDocument.js';

describe('Monaco model <-> LSP document', () => {
  it('maps content changes to 0-based LSP ranges, keeping order', () => {
    const changes = toLspContentChanges([
      { range: { startLineNumber: 3, startColumn: 5, endLineNumber: 3, endColumn: 5 }, rangeOffset: 20, rangeLength: 0, text: 'x' },
      { range: { startLineNumber: 1, startColumn: 1, endLineNumber: 2, endColumn: 1 }, rangeOffset: 0, rangeLength: 6, text: '' },
    ]);
    expect(changes).toEqual([
      { range: { start: { line: 2, character: 4 }, end: { line: 2, character: 4 } }, rangeLength: 0, text: 'x' },
      { range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, rangeLength: 6, text: '' },
    ]);
  });

  it('picks Monaco languages for catalog files', () => {
    expect(monacoLanguageForPath('a/b.tsx')).toBe('typescript');
    expect(monacoLanguageForPath('a/b.mjs')).toBe('javascript');
    expect(monacoLanguageForPath('stubs/x.pyi')).toBe('python');
    expect(monacoLanguageForPath('main.kts')).toBe('kotlin');
    expect(monacoLanguageForPath('README.md')).toBeUndefined();
  });
});
