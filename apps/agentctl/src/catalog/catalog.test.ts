import { LANGUAGE_IDS, languageDescriptor, type LanguageId } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { CATALOG, catalogLanguage, hasInstallerFor } from './catalog.js';

/** The npm recipe of a language (the test fails loudly on any other kind). */
function npmRecipe(id: LanguageId) {
  const recipe = languageDescriptor(id).install;
  if (recipe.kind !== 'npm') throw new Error(`${id} is not installed with npm`);
  return recipe;
}

describe('language catalog', () => {
  it('has exactly the protocol languages with their servers and arguments', () => {
    expect(CATALOG.map((l) => l.id)).toEqual([...LANGUAGE_IDS]);
    // Every language of the protocol has an entry; these keep their servers and arguments.
    const launches = CATALOG.map((l) => [l.id, l.binary, l.args.join(' ')]);
    expect(launches).toEqual(
      expect.arrayContaining([
        ['typescript', 'typescript-language-server', '--stdio'],
        ['python', 'pyright-langserver', '--stdio'],
        ['go', 'gopls', ''],
        ['rust', 'rust-analyzer', ''],
        ['kotlin', 'kotlin-lsp', '--stdio'],
        ['json', 'vscode-json-language-server', '--stdio'],
        ['yaml', 'yaml-language-server', '--stdio'],
        ['shell', 'bash-language-server', 'start'],
        ['dockerfile', 'docker-langserver', '--stdio'],
        ['css', 'vscode-css-language-server', '--stdio'],
        ['html', 'vscode-html-language-server', '--stdio'],
        ['cpp', 'clangd', '--background-index=false'],
      ]),
    );
  });

  it('clangd is never auto-installed; its card says how to install it with the system package manager', () => {
    const cpp = catalogLanguage('cpp');
    expect(cpp.autoInstallable).toBe(false);
    expect(cpp.installStrategy).toBe('none');
    expect(cpp.installCommand).toBe('apt-get install clangd');
    expect(cpp.prerequisites.join(' ')).toMatch(/compile_commands\.json/);
    for (const platform of ['linux', 'darwin', 'win32'] as const) expect(hasInstallerFor('cpp', platform)).toBe(false);
  });

  it('pins npm servers that run on Node 20 and shares one install for JSON, CSS and HTML', () => {
    expect(npmRecipe('yaml').packages).toEqual(['yaml-language-server@1']); // 2.x needs Node >= 22.13
    expect(npmRecipe('shell').packages).toEqual(['bash-language-server@5']);
    expect(npmRecipe('dockerfile').packages).toEqual(['dockerfile-language-server-nodejs@0.15']);
    for (const id of ['json', 'css', 'html'] as const) {
      expect(npmRecipe(id).packages).toEqual(['vscode-langservers-extracted@4']);
      expect(catalogLanguage(id).installCommand).toBe('npm install --prefix ~/.kandev/lsp-servers/vscode-langservers vscode-langservers-extracted@4');
      expect(catalogLanguage(id).managedDestination).toBe('~/.kandev/lsp-servers/vscode-langservers/node_modules/.bin');
      expect(hasInstallerFor(id, 'win32')).toBe(true);
    }
    expect(catalogLanguage('dockerfile').fileNames).toEqual(expect.arrayContaining(['Dockerfile', 'Containerfile']));
    expect(catalogLanguage('shell').fileNames).toEqual(expect.arrayContaining(['.bashrc']));
    expect(catalogLanguage('shell').prerequisites.join(' ')).toMatch(/shellcheck/);
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

  it("shows the installers' own pinned install commands and destinations (one layout source)", () => {
    expect(catalogLanguage('typescript').installCommand).toBe(
      'npm install --prefix ~/.kandev/lsp-servers/typescript typescript-language-server@5 typescript@6',
    );
    expect(catalogLanguage('python').installCommand).toBe('npm install --prefix ~/.kandev/lsp-servers/python pyright@1');
    for (const id of ['typescript', 'python', 'yaml', 'shell', 'dockerfile'] as const) {
      const entry = catalogLanguage(id);
      for (const pkg of npmRecipe(id).packages) expect(entry.installCommand, id).toContain(pkg);
      expect(entry.binary).toBe(npmRecipe(id).bin);
      expect(entry.managedDestination).toBe(`~/.kandev/lsp-servers/${id}/node_modules/.bin`);
    }
    expect(catalogLanguage('go').installCommand).toBe('go install golang.org/x/tools/gopls@latest');
    expect(catalogLanguage('rust').managedDestination).toBe('~/.kandev/lsp-servers/rust');
  });
});
