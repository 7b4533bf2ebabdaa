import { describe, expect, it } from 'vitest';
import { globToRegExp, matchesDocumentSelector } from './documentSelector.js';

describe('document selectors', () => {
  const ts = { languageId: 'typescript', uri: 'file:///work/app/src/a.ts' };
  it('null matches all; language, scheme and pattern filters narrow', () => {
    expect(matchesDocumentSelector(null, ts)).toBe(true);
    expect(matchesDocumentSelector([{ language: 'typescript' }], ts)).toBe(true);
    expect(matchesDocumentSelector([{ language: 'python' }], ts)).toBe(false);
    expect(matchesDocumentSelector([{ scheme: 'untitled' }], ts)).toBe(false);
    expect(matchesDocumentSelector([{ scheme: 'file', pattern: '**/*.ts' }], ts)).toBe(true);
    expect(matchesDocumentSelector([{ pattern: '**/*.{js,jsx}' }], ts)).toBe(false);
    expect(matchesDocumentSelector(['typescript'], ts)).toBe(true);
  });
  it('globs', () => {
    expect(globToRegExp('**/*.go').test('/a/b/c.go')).toBe(true);
    expect(globToRegExp('src/**').test('/w/src/x/y.ts')).toBe(true);
    expect(globToRegExp('*.ts').test('/w/a.ts')).toBe(true);
    expect(globToRegExp('/w/*.ts').test('/w/sub/a.ts')).toBe(false);
    expect(globToRegExp('a?.py').test('/w/ab.py')).toBe(true);
  });
});
