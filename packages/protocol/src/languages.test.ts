import { describe, expect, it } from 'vitest';
import { documentLanguageId, languageForPath } from './languages.js';
import { effectiveServerConfig, withInitializationOptions } from './serverDefaults.js';
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

  it('maps well-known file names before extensions, without case', () => {
    expect(languageForPath('Dockerfile')).toBe('dockerfile');
    expect(languageForPath('build/Containerfile')).toBe('dockerfile');
    expect(languageForPath('docker/Dockerfile.dev')).toBe('dockerfile');
    expect(languageForPath('api.Dockerfile')).toBe('dockerfile');
    expect(languageForPath('home/.bashrc')).toBe('shell');
    expect(languageForPath('scripts/run.sh')).toBe('shell');
    expect(languageForPath('.github/workflows/ci.yml')).toBe('yaml');
    expect(languageForPath('compose.YAML')).toBe('yaml');
    expect(languageForPath('styles/a.scss')).toBe('css');
    expect(languageForPath('index.htm')).toBe('html');
    expect(languageForPath('src/main.c')).toBe('cpp');
    expect(languageForPath('include/x.hpp')).toBe('cpp');
    expect(languageForPath('package.json')).toBe('json');
    expect(languageForPath('Makefile')).toBeUndefined();
  });

  it('gives each document the languageId its server expects', () => {
    expect(documentLanguageId('tsconfig.json')).toBe('jsonc');
    expect(documentLanguageId('a/settings.jsonc')).toBe('jsonc');
    expect(documentLanguageId('package.json')).toBe('json');
    expect(documentLanguageId('.bashrc')).toBe('shellscript');
    expect(documentLanguageId('Dockerfile')).toBe('dockerfile');
    expect(documentLanguageId('a.less')).toBe('less');
    expect(documentLanguageId('a.scss')).toBe('scss');
    expect(documentLanguageId('main.c')).toBe('c');
    expect(documentLanguageId('main.cc')).toBe('cpp');
    expect(documentLanguageId('x.yaml')).toBe('yaml');
    expect(documentLanguageId('README.md')).toBeUndefined();
  });
});

describe('server defaults', () => {
  it('keeps the YAML and JSON servers off the network unless the user turns it on', () => {
    expect(effectiveServerConfig('yaml', undefined)).toMatchObject({ yaml: { schemaStore: { enable: false } } });
    const merged = effectiveServerConfig('yaml', { yaml: { schemas: { './schema.json': 'a.yml' } } });
    expect(merged).toMatchObject({ yaml: { schemaStore: { enable: false }, schemas: { './schema.json': 'a.yml' } } });
    expect(effectiveServerConfig('yaml', { yaml: { schemaStore: { enable: true } } })).toMatchObject({ yaml: { schemaStore: { enable: true } } });
    expect(effectiveServerConfig('json', undefined)).toMatchObject({ json: { schemaDownload: { enable: false } } });
    expect(effectiveServerConfig('go', undefined)).toBeUndefined();
    expect(effectiveServerConfig('go', { gopls: 1 })).toEqual({ gopls: 1 });
  });

  it('gives the JSON server only the file: scheme to fetch schemas itself', () => {
    const params = withInitializationOptions('json', { processId: 1, initializationOptions: { custom: true } });
    expect(params).toMatchObject({ processId: 1, initializationOptions: { handledSchemaProtocols: ['file'], custom: true } });
    const ts = { processId: 1 };
    expect(withInitializationOptions('typescript', ts)).toBe(ts);
  });
});

describe('settings', () => {
  it('merges a valid partial update and refuses Kotlin auto-install', () => {
    const ok = mergeSettings(DEFAULT_SETTINGS, { show_status_bar: false, lsp_auto_install_languages: ['python'] });
    expect(ok.ok && ok.settings.show_status_bar).toBe(false);
    const bad = mergeSettings(DEFAULT_SETTINGS, { lsp_auto_install_languages: ['kotlin'] });
    expect(bad.ok).toBe(false);
    expect(mergeSettings(DEFAULT_SETTINGS, { lsp_auto_install_languages: ['cpp'] }).ok).toBe(false);
    expect(mergeSettings(DEFAULT_SETTINGS, { lsp_auto_install_languages: ['yaml', 'json', 'shell', 'dockerfile', 'css', 'html'] }).ok).toBe(true);
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
