import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@kandev/protocol';
import { configFingerprint, didChangeConfiguration, SettingsBook } from './settings.js';

describe('SettingsBook', () => {
  it('moves the revision only on a real change, whatever the key order', () => {
    const book = new SettingsBook();
    const a = { ...DEFAULT_SETTINGS, lsp_server_configs: { go: { gopls: { a: 1, b: 2 } } } };
    expect(book.observe('u', a)).toBe(true);
    expect(book.revision('u')).toBe(1);
    const reordered = { ...DEFAULT_SETTINGS, lsp_server_configs: { go: { gopls: { b: 2, a: 1 } } } };
    expect(book.observe('u', reordered)).toBe(false);
    expect(book.revision('u')).toBe(1);
    expect(book.observe('u', { ...a, lsp_server_configs: { go: { gopls: { a: 2 } } } })).toBe(true);
    expect(book.revision('u')).toBe(2);
    expect(book.languageConfig('u', 'go')).toEqual({ gopls: { a: 2 } });
    expect(book.languageConfig('other', 'go')).toBeUndefined();
  });

  it('autoInstall comes from the owner settings, never the browser', () => {
    const book = new SettingsBook();
    book.observe('u', { ...DEFAULT_SETTINGS, lsp_auto_install_languages: ['python'] });
    expect(book.autoInstall('u', 'python')).toBe(true);
    expect(book.autoInstall('u', 'go')).toBe(false);
  });

  it('fingerprints ignore key order; didChangeConfiguration carries the language JSON', () => {
    expect(configFingerprint({ a: 1, b: { c: 2, d: 3 } })).toBe(configFingerprint({ b: { d: 3, c: 2 }, a: 1 }));
    expect(configFingerprint(undefined)).toBe(configFingerprint({}));
    expect(didChangeConfiguration({ gopls: { x: 1 } })).toEqual({
      jsonrpc: '2.0',
      method: 'workspace/didChangeConfiguration',
      params: { settings: { gopls: { x: 1 } } },
    });
  });

  it("the TypeScript inlay hint preferences follow the language's switch; the user's JSON wins over them", () => {
    const book = new SettingsBook();
    book.observe('u', DEFAULT_SETTINGS);
    expect(book.languageConfig('u', 'typescript')).toBeUndefined();
    book.observe('u', { ...DEFAULT_SETTINGS, lsp_editor_features: { typescript: { inlay_hints: true } } });
    expect(book.languageConfig('u', 'typescript')).toMatchObject({
      typescript: { inlayHints: { includeInlayVariableTypeHints: true } },
      javascript: { inlayHints: { includeInlayVariableTypeHints: true } },
    });
    expect(book.languageConfig('u', 'python')).toBeUndefined();
    book.observe('u', {
      ...DEFAULT_SETTINGS,
      lsp_editor_features: { typescript: { inlay_hints: true } },
      lsp_server_configs: { typescript: { typescript: { inlayHints: { includeInlayVariableTypeHints: false } } } },
    });
    expect(book.languageConfig('u', 'typescript')).toMatchObject({
      typescript: { inlayHints: { includeInlayVariableTypeHints: false, includeInlayParameterNameHints: 'all' } },
    });
  });
});
