import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  AUTO_INSTALLABLE_LANGUAGES,
  documentLanguageId,
  effectiveServerConfig,
  LANGUAGE_CATALOG,
  LANGUAGE_DESCRIPTORS,
  languageForPath,
  LOCALES,
  withInitializationOptions,
  type InstallRecipe,
  type LanguageDescriptor,
  type LanguageId,
  type TrustedToolPins,
  type UntrustedWorkspaceRule,
} from '@kandev/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { guardConfig, guardInitialize } from '../../apps/backend/src/lsp/broker/workspaceTrust.js';
import { catalogLanguage, hasInstallerFor } from '../../apps/agentctl/src/catalog/catalog.js';
import { findManagedBinary, installLanguageServer, InstallLock } from '../../apps/agentctl/src/install/index.js';
import { resolveServer } from '../../apps/agentctl/src/resolve/resolveServer.js';
import { findTrustedTools } from '../../apps/agentctl/src/trust/trustedTools.js';
import { untrustedEnvOverrides } from '../../apps/agentctl/src/trust/untrustedEnv.js';

/**
 * The language conformance test (docs/adding-a-language.md): every descriptor of
 * packages/protocol/src/languages is held to the same bar, so a half-added language fails here
 * instead of falling back silently. Per language: its files map to it, Monaco knows its ids, its
 * server is discovered where its recipe installs it, the recipe installs (npm and go through
 * stand-in tools on the task PATH, a release from a stand-in download; a `never` recipe answers
 * with its guidance), its untrusted-workspace rule is exercised through the backend's guards and
 * agentctl's environment, its copy is in every locale and its icon tone is styled.
 */
const repo = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'kandev-language-conformance-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Descriptor = LanguageDescriptor<LanguageId>;

function flatten(node: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (typeof node === 'string') out.set(prefix, node);
  else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

function catalog(locale: string, namespace: string): Map<string, string> {
  return flatten(JSON.parse(readFileSync(join(repo, 'apps/web/src/locales', locale, `${namespace}.json`), 'utf8')));
}

/** Every language id monaco-editor registers (its basic languages and its language services). */
function monacoLanguageIds(): Set<string> {
  const esm = join(repo, 'node_modules/monaco-editor/esm/vs');
  const ids = new Set<string>();
  for (const folder of ['basic-languages', 'language']) {
    for (const name of readdirSync(join(esm, folder))) {
      for (const file of [`${name}.contribution.js`, 'monaco.contribution.js']) {
        let text: string;
        try {
          text = readFileSync(join(esm, folder, name, file), 'utf8');
        } catch {
          continue;
        }
        for (const match of text.matchAll(/\bid:\s*["']([^"']+)["']/g)) ids.add(match[1]!);
      }
    }
  }
  return ids;
}

const MONACO_IDS = monacoLanguageIds();
const TONE_STYLES = readFileSync(join(repo, 'apps/web/src/styles/workbench.css'), 'utf8');

function executable(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

/**
 * A task host of one language: HOME, a PATH with stand-in `npm` and `go` that install the launcher
 * where the real tools would (the installers run them as they would run the real ones), and a
 * workspace the launcher is never found in.
 */
function taskHost(d: Descriptor) {
  const root = mkdtempSync(join(work, `${d.id}-`));
  const tools = join(root, 'tools');
  const gobin = join(root, 'gobin');
  executable(
    join(tools, 'npm'),
    '#!/bin/sh\nwhile [ $# -gt 0 ]; do if [ "$1" = --prefix ]; then prefix=$2; fi; shift; done\n' +
      'mkdir -p "$prefix/node_modules/.bin" && printf "#!/bin/sh\\n" > "$prefix/node_modules/.bin/$CONFORMANCE_BIN" && chmod 755 "$prefix/node_modules/.bin/$CONFORMANCE_BIN"\n',
  );
  executable(
    join(tools, 'go'),
    '#!/bin/sh\nif [ "$1" = env ]; then printf \'{"GOBIN":"%s","GOPATH":""}\' "$GOBIN"; exit 0; fi\n' +
      'printf "#!/bin/sh\\n" > "$GOBIN/$CONFORMANCE_BIN" && chmod 755 "$GOBIN/$CONFORMANCE_BIN"\n',
  );
  mkdirSync(gobin, { recursive: true });
  // The stand-ins' own helpers; nothing else of the host, so a server installed on this machine is never what is found.
  for (const helper of ['mkdir', 'chmod']) symlinkSync(execFileSync('sh', ['-c', `command -v ${helper}`], { encoding: 'utf8' }).trim(), join(tools, helper));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace, { recursive: true });
  const env: Record<string, string> = {
    HOME: join(root, 'home'),
    PATH: tools,
    CONFORMANCE_BIN: d.install.kind === 'npm' ? d.install.bin : d.server.binary,
    GOBIN: gobin,
  };
  return { root, env, workspace };
}

/** A stand-in release download: `<binary>-<triple>.gz` and its sha256, as the recipe's base URL serves them. */
function releaseFetch(d: Descriptor): typeof globalThis.fetch {
  const archive = gzipSync(Buffer.from('#!/bin/sh\n'));
  const sum = createHash('sha256').update(archive).digest('hex');
  return (async (input: string | URL | Request) => {
    const url = String(input);
    if (url.endsWith(`/${d.server.binary}-x86_64-unknown-linux-gnu.gz`)) return new Response(archive);
    if (url.endsWith('.gz.sha256')) return new Response(`${sum}  archive\n`);
    return new Response('not found', { status: 404, statusText: 'Not Found' });
  }) as typeof globalThis.fetch;
}

function isPinned(pkg: string): boolean {
  return /^(@[a-z0-9-]+\/)?[a-z0-9.-]+@[0-9][0-9.]*$/.test(pkg);
}

function checkRecipe(recipe: InstallRecipe): void {
  switch (recipe.kind) {
    case 'npm':
      expect(recipe.packages.length).toBeGreaterThan(0);
      for (const pkg of recipe.packages) expect(isPinned(pkg), pkg).toBe(true);
      expect(recipe.dir).toMatch(/^[a-z0-9-]+$/);
      expect(recipe.platforms.length).toBeGreaterThan(0);
      return;
    case 'go':
      expect(recipe.module).toMatch(/^[a-z0-9.-]+(\/[A-Za-z0-9._-]+)+@[a-z0-9.]+$/);
      return;
    case 'release':
      expect(recipe.baseUrl).toMatch(/^https:\/\//);
      expect(recipe.baseUrlEnv).toMatch(/^KANDEV_[A-Z0-9_]+$/);
      expect(recipe.dir).toMatch(/^[a-z0-9-]+$/);
      expect(recipe.manualCommand.trim()).not.toBe('');
      expect(recipe.otherPlatformGuidance).toMatch(/PATH/);
      return;
    case 'never':
      expect(recipe.guidance).toMatch(/PATH/);
      return;
  }
}

const PINS = {
  tools: { tsserver: '/host/typescript/lib/tsserver.js', python: '/usr/bin/python3' },
  buildFiles: ['build.gradle.kts'],
} satisfies TrustedToolPins;
/** The pins of `PINS` a rule's probes could report: its own host tools, under their ids. */
const pinsOf = (rule: Extract<UntrustedWorkspaceRule, { kind: 'guarded' }>): TrustedToolPins => ({
  tools: Object.fromEntries(rule.hostTools.map((probe) => [probe.tool, `/host/tools/${probe.tool}`])),
  buildFiles: PINS.buildFiles,
});
const USER_CONFIG = { python: { pythonPath: '/workspace/.venv/bin/python' }, 'rust-analyzer': { procMacro: { enable: true } }, other: { kept: true } };
const INIT = { processId: 1, initializationOptions: { tsserver: { path: '/workspace/node_modules/typescript/lib/tsserver.js' }, plugins: [{ name: 'p' }] } };

/** The member at a dotted path of nested objects. */
function valueAt(value: Record<string, unknown>, dotted: string): unknown {
  let current: unknown = value;
  for (const key of dotted.split('.')) current = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[key] : undefined;
  return current;
}

/** Each guard kind, exercised: what an untrusted lease's server would see. */
function checkUntrusted(d: Descriptor, rule: UntrustedWorkspaceRule, workspace: string): void {
  const untrusted = (pins: TrustedToolPins | undefined) => ({ language: d.id, trusted: false, pins });
  // Trusted leases pass everything through, whatever the rule.
  expect(guardInitialize({ language: d.id, trusted: true, pins: undefined }, INIT)).toEqual({ ok: true, params: INIT });
  const pathOnly = untrustedEnvOverrides(d.id, { PATH: `${workspace}/bin:/usr/bin` }, workspace, 'linux');
  expect(pathOnly.PATH).toBe('/usr/bin');
  if (rule.kind === 'nothing_runs') {
    expect(rule.because.trim().length, 'why nothing of the workspace runs').toBeGreaterThan(20);
    expect(guardInitialize(untrusted(undefined), INIT)).toEqual({ ok: true, params: INIT });
    expect(guardConfig(untrusted(undefined), USER_CONFIG)).toBe(USER_CONFIG);
    expect(Object.keys(pathOnly)).toEqual(['PATH']);
    expect(findTrustedTools(d.id, '/nonexistent/launcher', {}, workspace, 'linux')).toEqual({});
    return;
  }
  const init = rule.initialize;
  if (init.kind === 'unchanged') expect(guardInitialize(untrusted(PINS), INIT)).toEqual({ ok: true, params: INIT });
  // A pinning guard names a tool its rule's probes look for, and is refused without it.
  const probed = rule.hostTools.map((probe) => probe.tool);
  expect(new Set(probed).size, 'one probe per tool').toBe(probed.length);
  if (init.kind === 'pin_option_to_host_tool') {
    expect(probed, 'the pinned tool is probed for').toContain(init.tool);
    expect(guardInitialize(untrusted(undefined), INIT)).toEqual({ ok: false, message: init.refusal });
    const pinned = guardInitialize(untrusted(pinsOf(rule)), INIT);
    const options = pinned.ok ? ((pinned.params as { initializationOptions: Record<string, unknown> }).initializationOptions ?? {}) : {};
    expect(valueAt(options, init.option)).toBe(`/host/tools/${init.tool}`);
    for (const dropped of init.drop) expect(valueAt(options, dropped), dropped).toBeUndefined();
  }
  if (init.kind === 'force_options')
    expect(guardInitialize(untrusted(PINS), INIT)).toMatchObject({ ok: true, params: { initializationOptions: init.options } });
  if (init.kind === 'refuse_when_build_files') {
    expect(guardInitialize(untrusted(PINS), INIT)).toEqual({ ok: false, message: init.refusal });
    expect(guardInitialize(untrusted({ buildFiles: [] }), INIT)).toEqual({ ok: true, params: INIT });
  }
  if (init.kind === 'refuse') {
    expect(guardInitialize(untrusted(PINS), INIT)).toEqual({ ok: false, message: init.refusal });
    expect(guardInitialize(untrusted({}), INIT)).toEqual({ ok: false, message: init.refusal });
  }
  const config = rule.configuration;
  if (config.kind === 'unchanged') expect(guardConfig(untrusted(PINS), USER_CONFIG)).toBe(USER_CONFIG);
  if (config.kind === 'pin_setting_to_host_tool') {
    expect(probed, 'the pinned tool is probed for').toContain(config.tool);
    const workspaceValue = { ...USER_CONFIG, [config.setting]: '/workspace/bin/tool' };
    const pinned = guardConfig(untrusted(pinsOf(rule)), workspaceValue) ?? {};
    expect(valueAt(pinned, config.setting)).toBe(`/host/tools/${config.tool}`);
    expect(pinned[config.setting], 'no dotted spelling left').toBeUndefined();
    expect(valueAt(guardConfig(untrusted(undefined), workspaceValue) ?? {}, config.setting), 'removed without the tool').toBeUndefined();
  }
  if (config.kind === 'force_section')
    expect(guardConfig(untrusted(PINS), USER_CONFIG)).toMatchObject({ [config.section]: config.values, other: { kept: true } });
  // The environment guard: variables set, and programs pinned from the guarded PATH only.
  const bin = join(workspace, '..', 'host-bin');
  for (const program of Object.values(rule.environment.pinFromGuardedPath)) executable(join(bin, program), '#!/bin/sh\n');
  executable(join(workspace, 'bin', 'rustc'), '#!/bin/sh\n');
  const env = untrustedEnvOverrides(d.id, { PATH: `${workspace}/bin:${bin}` }, workspace, 'linux');
  expect(env).toMatchObject(rule.environment.set);
  for (const [variable, program] of Object.entries(rule.environment.pinFromGuardedPath)) expect(env[variable]).toBe(join(bin, program));
  expect(() => findTrustedTools(d.id, '/nonexistent/launcher', {}, workspace, 'linux')).not.toThrow();
}

describe('language descriptors conform', () => {
  it('have unique ids and every id a settings card and a catalog entry', () => {
    const ids = LANGUAGE_DESCRIPTORS.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(LANGUAGE_CATALOG.map((e) => e.id)).toEqual(ids);
  });

  describe.each(LANGUAGE_DESCRIPTORS.map((d) => [d.id, d as Descriptor] as const))('%s', (id, d) => {
    it('its files map to it and open as a document Monaco knows', () => {
      expect(d.files.extensions.length + d.files.fileNames.length).toBeGreaterThan(0);
      for (const ext of d.files.extensions) {
        expect(ext, 'lower case, with the dot').toMatch(/^\.[a-z0-9+-][a-z0-9.+-]*$/);
        expect(languageForPath(`src/file${ext}`), ext).toBe(id);
      }
      for (const name of d.files.fileNames) expect(languageForPath(`a/${name}`), name).toBe(id);
      for (const prefix of d.files.fileNamePrefixes) expect(languageForPath(`a/${prefix}x`), prefix).toBe(id);
      expect(d.monaco.languageIds.length).toBeGreaterThan(0);
      for (const monacoId of Object.values(d.monaco.modelLanguageOfDocument)) expect(d.monaco.languageIds, monacoId).toContain(monacoId);
      // Each Monaco id is coloured by a tokenizer this build has: Monaco's Monarch grammar, its own
      // service (which registers the id), or a TextMate grammar of the collection.
      for (const monacoId of d.monaco.languageIds) {
        const tokenizer = d.monaco.tokenizers[monacoId];
        expect(tokenizer, `tokenizer of ${monacoId}`).toBeDefined();
        if (tokenizer?.kind === 'monarch')
          expect(
            existsSync(join(repo, 'node_modules/monaco-editor/esm/vs/basic-languages', tokenizer.module, `${tokenizer.module}.js`)),
            tokenizer.module,
          ).toBe(true);
        if (tokenizer?.kind === 'language_service') expect(MONACO_IDS.has(monacoId), `Monaco service of ${monacoId}`).toBe(true);
        if (tokenizer?.kind === 'textmate')
          for (const grammar of [tokenizer.grammar, ...tokenizer.embedded])
            expect(existsSync(join(repo, 'node_modules/tm-grammars/grammars', `${grammar}.json`)), grammar).toBe(true);
      }
      for (const path of [...d.files.extensions.map((e) => `f${e}`), ...d.files.fileNames]) {
        const doc = documentLanguageId(path);
        expect(doc, path).toBeTruthy();
        expect(d.monaco.languageIds, path).toContain(d.monaco.modelLanguageOfDocument[doc!] ?? doc);
      }
    });

    it('its install recipe is valid and installs where discovery finds it (or says how to install by hand)', async () => {
      checkRecipe(d.install);
      const { env, workspace } = taskHost(d);
      expect(AUTO_INSTALLABLE_LANGUAGES.includes(id)).toBe(d.install.kind !== 'never');
      expect(hasInstallerFor(id, 'linux')).toBe(d.install.kind !== 'never' && d.install.platforms.includes('linux'));
      if (d.install.kind === 'release') env[d.install.baseUrlEnv] = 'http://conformance.invalid/download';
      const outcome = await installLanguageServer(
        { language: id, env, platform: 'linux', signal: new AbortController().signal },
        { fetch: releaseFetch(d), arch: 'x64', libc: () => 'gnu', lock: new InstallLock() },
      );
      if (d.install.kind === 'never') {
        expect(outcome).toEqual({ ok: false, error: { code: 'no_installer', guidance: d.install.guidance } });
        const onPath = join(workspace, '..', 'manual', d.server.binary);
        executable(onPath, '#!/bin/sh\n');
        env.PATH = `${join(onPath, '..')}:${env.PATH}`;
        expect(await resolveServer({ language: catalogLanguage(id), env, platform: 'linux', workspaceReal: workspace })).toEqual({
          found: true,
          path: onPath,
          source: 'path',
        });
        return;
      }
      expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
      const installed = (outcome as { value: string }).value;
      expect(findManagedBinary(id, env, 'linux')).toBe(installed);
      const found = await resolveServer({ language: catalogLanguage(id), env, platform: 'linux', workspaceReal: workspace });
      expect(found).toEqual({ found: true, path: installed, source: d.install.kind === 'go' ? 'go_bin' : 'managed' });
    });

    it('its untrusted-workspace rule is present and holds', () => {
      const { workspace } = taskHost(d);
      checkUntrusted(d, d.untrusted, workspace);
    });

    it('its network-off settings reach the server under the user JSON', () => {
      expect(d.networkOff.because.trim().length).toBeGreaterThan(20);
      if (d.networkOff.kind !== 'settings') return;
      expect(Object.keys(d.networkOff.settings).length + Object.keys(d.networkOff.initializationOptions).length).toBeGreaterThan(0);
      expect(effectiveServerConfig(id, { unrelated: true }) ?? {}).toMatchObject(d.networkOff.settings);
      expect(withInitializationOptions(id, { initializationOptions: {} })).toMatchObject({ initializationOptions: d.networkOff.initializationOptions });
    });

    it('its copy is in every locale and its icon tone is styled', () => {
      for (const locale of LOCALES) {
        const lsp = catalog(locale, 'lsp');
        const keys = [d.copy.name, d.copy.longInitializeNotice];
        if (d.install.kind === 'never') keys.push(`close.${d.install.closeKey}`, `guidance.${d.install.guidanceKey}`);
        for (const key of keys) expect(lsp.get(key)?.trim(), `${locale} lsp:${key}`).toBeTruthy();
        if (d.untrusted.kind === 'guarded')
          expect(catalog(locale, 'trust').get(d.untrusted.dialogKey)?.trim(), `${locale} trust:${d.untrusted.dialogKey}`).toBeTruthy();
      }
      for (const tone of [d.icon.tone, ...Object.values(d.icon.extensionTones)])
        expect(TONE_STYLES, `.tone-${tone}`).toMatch(new RegExp(`\\.tone-${tone}\\s*\\{`));
    });
  });
});
