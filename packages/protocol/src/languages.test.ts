import { describe, expect, it } from 'vitest';
import { documentLanguageId, languageForPath } from './languages.js';
import { configurationSection, DEFAULT_SETTINGS, mergeSettings } from './settings.js';
import { canonicalFileUri, fileUriToPath, pathToFileUri, relativePathInWorkspace } from './uri.js';

describe('languages', () => {
  it('maps every catalog extension and ignores others', () => {
    expect(languageForPath('src/a.tsx')).toBe('typescript');
    expect(languageForPath('x/Build.KTS')).toBe('kotlin');
    expect(languageForPath('m.pyi')).toBe('python');
    expect(languageForPath('README.md')).toBeUndefined();
    expect(languageForPath('.ts')).toBeUndefined();
    expect(documentLanguageId('a.tsx')).toBe('typescriptreact');
    expect(documentLanguageId('a.jsx')).toBe('javascriptreact');
    expect(documentLanguageId('a.cjs')).toBe('javascript');
  });
});

describe('settings', () => {
  it('merges a valid partial update and refuses Kotlin auto-install', () => {
    const ok = mergeSettings(DEFAULT_SETTINGS, { show_status_bar: false, lsp_auto_install_languages: ['python'] });
    expect(ok.ok && ok.settings.show_status_bar).toBe(false);
    const bad = mergeSettings(DEFAULT_SETTINGS, { lsp_auto_install_languages: ['kotlin'] });
    expect(bad.ok).toBe(false);
    expect(mergeSettings(DEFAULT_SETTINGS, { typo: 1 }).ok).toBe(false);
    expect(mergeSettings(DEFAULT_SETTINGS, { lsp_server_configs: { go: [1] } }).ok).toBe(false);
  });

  it('answers configuration sections by dotted path or whole', () => {
    const config = { python: { analysis: { typeCheckingMode: 'strict' } }, 'gopls.x': 1 };
    expect(configurationSection(config, 'python.analysis')).toEqual({ typeCheckingMode: 'strict' });
    expect(configurationSection(config, 'gopls.x')).toBe(1);
    expect(configurationSection(config, 'missing')).toBeNull();
    expect(configurationSection(undefined, 'x')).toBeNull();
    expect(configurationSection(config, undefined)).toBe(config);
  });
});

describe('file URIs', () => {
  it('round-trips POSIX paths with spaces and unicode', () => {
    const uri = pathToFileUri('/work/my project/ação.ts');
    expect(uri).toBe('file:///work/my%20project/a%C3%A7%C3%A3o.ts');
    expect(fileUriToPath(uri)).toBe('/work/my project/ação.ts');
  });

  it('spells Windows drive letters canonically', () => {
    expect(pathToFileUri('C:\\Users\\me\\a.go')).toBe('file:///c%3A/Users/me/a.go');
    expect(canonicalFileUri('file:///C:/Users/me/a.go')).toBe('file:///c%3A/Users/me/a.go');
  });

  it('finds workspace-relative paths and refuses outside ones', () => {
    expect(relativePathInWorkspace('file:///workspace', 'file:///workspace/src/a.ts')).toBe('src/a.ts');
    expect(relativePathInWorkspace('file:///workspace/', 'file:///workspace2/a.ts')).toBeUndefined();
    expect(relativePathInWorkspace('file:///workspace', 'file:///etc/passwd')).toBeUndefined();
  });
});
