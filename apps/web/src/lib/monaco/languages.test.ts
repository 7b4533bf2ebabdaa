import { describe, expect, it } from 'vitest';
import { monacoLanguageForPath, monacoLanguagesOf } from './languages.js';

describe('Monaco language of a session file', () => {
  it('maps extensions and well-known names to the Monaco modes the editor loads', () => {
    expect(monacoLanguageForPath('src/a.tsx')).toBe('typescript');
    expect(monacoLanguageForPath('src/a.jsx')).toBe('javascript');
    expect(monacoLanguageForPath('m.pyi')).toBe('python');
    expect(monacoLanguageForPath('tsconfig.json')).toBe('json');
    expect(monacoLanguageForPath('a.jsonc')).toBe('json');
    expect(monacoLanguageForPath('.github/workflows/ci.yml')).toBe('yaml');
    expect(monacoLanguageForPath('home/.bashrc')).toBe('shell');
    expect(monacoLanguageForPath('docker/Dockerfile.dev')).toBe('dockerfile');
    expect(monacoLanguageForPath('Containerfile')).toBe('dockerfile');
    expect(monacoLanguageForPath('a.scss')).toBe('scss');
    expect(monacoLanguageForPath('a.less')).toBe('less');
    expect(monacoLanguageForPath('index.htm')).toBe('html');
    expect(monacoLanguageForPath('main.c')).toBe('c');
    expect(monacoLanguageForPath('x.hpp')).toBe('cpp');
    expect(monacoLanguageForPath('README.md')).toBeUndefined();
  });

  it("registers providers for every Monaco mode a catalog language's files use", () => {
    expect(monacoLanguagesOf('typescript')).toEqual(['typescript', 'javascript']);
    expect(monacoLanguagesOf('css')).toEqual(['css', 'scss', 'less']);
    expect(monacoLanguagesOf('cpp')).toEqual(['c', 'cpp']);
    expect(monacoLanguagesOf('shell')).toEqual(['shell']);
    expect(monacoLanguagesOf('json')).toEqual(['json']);
  });
});
