import { LANGUAGE_IDS } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { languageCards } from './languageCatalog.js';
import { formatServerConfig, parseServerConfig } from './serverConfig.js';

describe('language catalog cards', () => {
  it('S05 keeps the install command, prerequisites and destination the backend reports', () => {
    const [python] = languageCards([
      {
        id: 'python',
        name: 'Python',
        extensions: ['.py', '.pyi'],
        binary: 'pyright-langserver',
        installStrategy: 'npm',
        installCommand: 'npm install pyright@1.1.400',
        prerequisites: ['Node.js 18+', 'npm'],
        managedDestination: '$HOME/.kandev/lsp-servers/python',
        autoInstallable: true,
        experimental: false,
      },
    ]);
    expect(python).toEqual({
      id: 'python',
      name: 'Python',
      extensions: ['.py', '.pyi'],
      binary: 'pyright-langserver',
      installStrategy: 'npm',
      installCommand: 'npm install pyright@1.1.400',
      prerequisites: ['Node.js 18+', 'npm'],
      managedDestination: '$HOME/.kandev/lsp-servers/python',
      autoInstallable: true,
      experimental: false,
    });
  });

  it('codes defensively: every language gets a card, missing fields stay missing (not invented), Kotlin is experimental and never auto-installable', () => {
    const cards = languageCards([
      { id: 'go', extensions: ['.go'] },
      { id: 'nope' as never },
      { id: 'kotlin', autoInstallable: true },
      { id: 'go', name: 'dup' },
    ]);
    expect(cards.map((c) => c.id)).toEqual(['go', 'kotlin', ...LANGUAGE_IDS.filter((id) => id !== 'go' && id !== 'kotlin')]);
    const go = cards[0]!;
    expect(go).toEqual({ id: 'go', extensions: ['.go'], autoInstallable: true, experimental: false });
    expect(go.prerequisites).toBeUndefined();
    expect(cards[1]).toMatchObject({ id: 'kotlin', autoInstallable: false, experimental: true, extensions: ['.kt', '.kts'] });
    expect(languageCards([]).map((c) => c.id)).toEqual([...LANGUAGE_IDS]);
    expect(languageCards([{ id: 'rust', prerequisites: 'tar' as never, installCommand: 42 as never, experimental: true }])[0]).toEqual({
      id: 'rust',
      extensions: ['.rs'],
      autoInstallable: true,
      experimental: true,
    });
  });
});

describe('cards of the configuration and web languages', () => {
  it('lists well-known file names beside extensions, from the catalog or the protocol table; clangd is never auto-installable', () => {
    const [docker] = languageCards([{ id: 'dockerfile', fileNames: ['Dockerfile', 'Containerfile'], installStrategy: 'npm' }]);
    expect(docker).toMatchObject({
      id: 'dockerfile',
      extensions: ['.dockerfile', '.containerfile'],
      fileNames: ['Dockerfile', 'Containerfile'],
      autoInstallable: true,
    });
    const cards = languageCards([{ id: 'cpp', autoInstallable: true }]);
    expect(cards.find((c) => c.id === 'cpp')).toMatchObject({ autoInstallable: false, experimental: false });
    expect(cards.find((c) => c.id === 'shell')?.fileNames).toContain('.bashrc');
    expect(cards.find((c) => c.id === 'css')?.fileNames).toBeUndefined();
  });
});

describe('per-language LSP JSON', () => {
  it('refuses invalid JSON and non-objects; empty means no settings; objects pass', () => {
    expect(parseServerConfig('{"gopls": {"staticcheck": true}')).toEqual({ ok: false, error: 'invalid' });
    expect(parseServerConfig("{'single': 1}")).toEqual({ ok: false, error: 'invalid' });
    expect(parseServerConfig('[1, 2]')).toEqual({ ok: false, error: 'notObject' });
    expect(parseServerConfig('"text"')).toEqual({ ok: false, error: 'notObject' });
    expect(parseServerConfig('null')).toEqual({ ok: false, error: 'notObject' });
    expect(parseServerConfig('  \n ')).toEqual({ ok: true, value: null });
    expect(parseServerConfig(' {"gopls": {"staticcheck": true}} ')).toEqual({ ok: true, value: { gopls: { staticcheck: true } } });
  });
  it('formats a stored config for editing', () => {
    expect(formatServerConfig(undefined)).toBe('');
    expect(formatServerConfig({})).toBe('');
    expect(formatServerConfig({ a: 1 })).toBe('{\n  "a": 1\n}');
  });
});
