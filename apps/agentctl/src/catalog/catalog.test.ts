import { LANGUAGE_IDS } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { GOPLS_PACKAGE, NPM_SERVERS } from '../install/layout.js';
import { CATALOG, catalogLanguage, hasInstallerFor } from './catalog.js';

describe('language catalog (DESIGN section 6)', () => {
  it('has exactly the five protocol languages with their servers and arguments', () => {
    expect(CATALOG.map((l) => l.id)).toEqual([...LANGUAGE_IDS]);
    expect(CATALOG.map((l) => [l.id, l.binary, l.args.join(' ')])).toEqual([
      ['typescript', 'typescript-language-server', '--stdio'],
      ['python', 'pyright-langserver', '--stdio'],
      ['go', 'gopls', ''],
      ['rust', 'rust-analyzer', ''],
      ['kotlin', 'kotlin-lsp', '--stdio'],
    ]);
  });

  it('S03 Kotlin is never auto-installable on any host', () => {
    const kotlin = catalogLanguage('kotlin');
    expect(kotlin.autoInstallable).toBe(false);
    expect(kotlin.installStrategy).toBe('none');
    for (const platform of ['linux', 'darwin', 'win32'] as const) expect(hasInstallerFor('kotlin', platform)).toBe(false);
  });

  it('S11 rust-analyzer installs on Linux and macOS task hosts, not on Windows', () => {
    expect(hasInstallerFor('rust', 'linux')).toBe(true);
    expect(hasInstallerFor('rust', 'darwin')).toBe(true);
    expect(hasInstallerFor('rust', 'win32')).toBe(false);
    expect(hasInstallerFor('go', 'win32')).toBe(true);
  });

  it('S05 every auto-installable language tells a person how to install it by hand', () => {
    for (const l of CATALOG.filter((c) => c.autoInstallable)) {
      expect(l.installCommand, l.id).toBeTruthy();
      expect(l.prerequisites.length, l.id).toBeGreaterThan(0);
      expect(l.managedDestination, l.id).toBeTruthy();
    }
    expect(catalogLanguage('kotlin').prerequisites.join(' ')).toMatch(/manual/i);
  });

  it('shows the installers\' own pinned install commands and destinations (one layout source)', () => {
    expect(catalogLanguage('typescript').installCommand).toBe('npm install --prefix ~/.kandev/lsp-servers/typescript typescript-language-server@5 typescript@6');
    expect(catalogLanguage('python').installCommand).toBe('npm install --prefix ~/.kandev/lsp-servers/python pyright@1');
    for (const id of ['typescript', 'python'] as const) {
      const entry = catalogLanguage(id);
      for (const pkg of NPM_SERVERS[id].packages) expect(entry.installCommand, id).toContain(pkg);
      expect(entry.binary).toBe(NPM_SERVERS[id].bin);
      expect(entry.managedDestination).toBe(`~/.kandev/lsp-servers/${id}/node_modules/.bin`);
    }
    expect(catalogLanguage('go').installCommand).toBe(`go install ${GOPLS_PACKAGE}`);
    expect(catalogLanguage('rust').managedDestination).toBe('~/.kandev/lsp-servers/rust');
  });
});
