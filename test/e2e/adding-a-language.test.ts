import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { LanguageCatalogEntry } from '@kandev/protocol';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSettings, screenshot } from '../support/app.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { ensureBuilt } from '../support/build.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { fakeServerBundle, readLog, writeScript } from '../support/fakeServer.js';
import { writeFiles } from '../support/files.js';
import { lspStatus, openFile, openSession, problemRows, recordLspStates, lspStatesSeen, waitForLspState, withEditor } from '../support/page.js';
import { scratchCheckout, type ScratchCheckout } from '../support/scratchCheckout.js';
import { startStack, taskPath, type RunningStack } from '../support/stack.js';
import { startReleaseServer, type ReleaseServer } from '../fixtures/release-server/server.js';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';

/**
 * docs/adding-a-language.md, walked through. In a throwaway copy of this checkout the test adds a
 * made-up language, Kadvex (`.kdvx`), exactly as the page says: one descriptor file, one entry in
 * the list, its locale strings, the conformance test and the type check. Then it builds that copy
 * and runs it (backend, agentctl, Chromium) and proves the product picked the language up
 * everywhere the page's table says a field is read: the catalog, the settings card, the install
 * recipe, Monaco's language and tokenizer, the file icon, the untrusted-workspace rule, Problems.
 * No app file of the copy is touched: if one had to name Kadvex, the page would be wrong.
 *
 * Its server is the fake one (test/fixtures/fake-lsp-server): no real server speaks a made-up
 * language. It arrives the way a `release` recipe installs a server: a checksum-verified download
 * from a mirror on 127.0.0.1, into the task HOME's managed root.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

/** Step 1: the descriptor file, as a contributor would write it (copied from rust.ts, a `release` server). */
const DESCRIPTOR = `import { defineLanguage, NONE, PATH_GUARD_ONLY } from './descriptor.js';

/** Kadvex: a made-up language whose scripts the server can run (here only a switch the guard turns off). */
export const kdvx = defineLanguage({
  id: 'kdvx',
  files: { extensions: ['.kdvx'], fileNames: [], fileNamePrefixes: [], documentLanguageId: () => 'kdvx' },
  // Monaco has no Kadvex grammar; its syntax is Lua's, so Monaco's Lua Monarch grammar colours it.
  monaco: { languageIds: ['kdvx'], modelLanguageOfDocument: {}, builtinLanguageService: false, tokenizers: { kdvx: { kind: 'monarch', module: 'lua' } } },
  server: { binary: 'kdvx-language-server', args: ['--stdio'], configuration: 'push' },
  offers: { kind: 'not_measured', because: 'Kadvex has no real server; the fake one stands in for it' },
  install: {
    kind: 'release',
    dir: 'kdvx',
    baseUrl: 'https://kdvx.invalid/download',
    baseUrlEnv: 'KANDEV_KDVX_BASE_URL',
    manualCommand: 'curl -fsSL https://kdvx.invalid/install.sh | sh',
    platforms: ['linux', 'darwin'],
    otherPlatformGuidance: 'kdvx-language-server is not installed automatically on Windows task hosts; put it on the task PATH.',
  },
  serverSettings: { initializationOptions: { kdvx: { runProjectScripts: true } }, settings: NONE, inlayHintSettings: NONE },
  networkOff: { kind: 'no_setting', because: 'kdvx-language-server reads the workspace only' },
  untrusted: {
    kind: 'guarded',
    dialogKey: 'languages.kdvx',
    // The server runs the project's scripts when told to: untrusted, it is told not to.
    initialize: { kind: 'force_options', options: { kdvx: { runProjectScripts: false } } },
    configuration: { kind: 'unchanged', because: 'it takes no settings that name a program' },
    environment: PATH_GUARD_ONLY,
    hostTools: [],
  },
  autoStartByDefault: false,
  catalog: { name: 'Kadvex', prerequisites: ['Linux or macOS task host for automatic install'], experimental: true },
  copy: { name: 'languages.kdvx', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'terminal', tone: 'shell', extensionTones: {}, fileNames: {} },
});
`;

/** Step 2: its strings, per locale (the pseudo locale is generated from English). */
const STRINGS: Record<string, { name: string; trust: string }> = {
  en: { name: 'Kadvex script', trust: 'Kadvex: let kdvx-language-server run the project scripts it finds.' },
  'pt-pt': { name: 'Script Kadvex', trust: 'Kadvex: permitir que o kdvx-language-server execute os scripts do projeto.' },
  'zh-cn': { name: 'Kadvex 脚本', trust: 'Kadvex：允许 kdvx-language-server 运行它找到的项目脚本。' },
};

const SOURCE = ['-- a Kadvex script', 'local count = 1', 'print(count)', ''].join('\n');
const FINDING = 'kdvx: `count` is never reassigned';

/** The fake server's part: it publishes one finding for every file it is told about. */
const SCRIPT: FakeScript = {
  capabilities: { textDocumentSync: 1 },
  serverInfo: { name: 'kdvx-language-server', version: '0.0.0' },
  rules: {
    'textDocument/didOpen': [
      {
        notify: 'textDocument/publishDiagnostics',
        params: {
          uri: '$uri',
          version: '$version',
          diagnostics: [{ range: { start: { line: 1, character: 6 }, end: { line: 1, character: 11 } }, severity: 2, source: 'kdvx', message: FINDING }],
        },
      },
    ],
  },
};

/**
 * The copy's build, as scripts/build.mjs makes it: the Node bundles and the web app's test twin in
 * two processes side by side. The web app is not precompressed: nothing here downloads it over a
 * network, and brotli at its best quality is a good part of the web build's time.
 */
function startBuild(scratch: ScratchCheckout): Promise<unknown> {
  const build = Promise.all([
    scratch.nodeAsync(['scripts/build.mjs', 'agentctl', 'backend'], 1_500_000),
    scratch.nodeAsync(['scripts/build.mjs', 'web-test'], 1_500_000, { KANDEV_BUILD_PRECOMPRESS: '0' }),
  ]);
  void build.catch(() => undefined); // awaited by the build step, which reports its failure
  return build;
}

/** Edits a JSON file of the copy with `change`, written back as the repository formats it. */
function editJson(scratch: ScratchCheckout, path: string, change: (json: Record<string, Record<string, unknown>>) => void): void {
  const json = JSON.parse(scratch.read(path)) as Record<string, Record<string, unknown>>;
  change(json);
  scratch.write(path, `${JSON.stringify(json, null, 2)}\n`);
}

describe.runIf(run)('adding a language, walked through (docs/adding-a-language.md)', () => {
  let scratch: ScratchCheckout;
  let releases: ReleaseServer;
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let sessionId: string;
  let work: string;
  let building: Promise<unknown> | undefined;
  const logPath = () => join(work, 'server.jsonl');

  beforeAll(() => {
    ensureBuilt('fake-lsp-server');
    scratch = scratchCheckout();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await releases?.close();
    scratch?.remove();
  });

  it('1. The descriptor: one file, and one entry in the list of index.ts', () => {
    scratch.write('packages/protocol/src/languages/kdvx.ts', DESCRIPTOR);
    const index = scratch.read('packages/protocol/src/languages/index.ts');
    const withImport = index.replace(/^(import .*\n)+/m, (imports) => `${imports}import { kdvx } from './kdvx.js';\n`);
    const withEntry = withImport.replace(/(export const LANGUAGE_DESCRIPTORS = \[\n(?: {2}\w+,\n)+)/, `$1  kdvx,\n`);
    expect(withEntry.match(/kdvx/g)).toHaveLength(3); // the import (twice on its line) and the entry
    scratch.write('packages/protocol/src/languages/index.ts', withEntry);
  });

  it('2. The locale strings: lsp.json and trust.json in en, pt-pt and zh-cn, then the pseudo locale', () => {
    for (const [locale, strings] of Object.entries(STRINGS)) {
      editJson(scratch, `apps/web/src/locales/${locale}/lsp.json`, (lsp) => void (lsp.languages!.kdvx = strings.name));
      editJson(scratch, `apps/web/src/locales/${locale}/trust.json`, (trust) => void (trust.languages!.kdvx = strings.trust));
    }
    scratch.node(['scripts/pseudo-locale.mjs'], 60_000);
    expect(JSON.parse(scratch.read('apps/web/src/locales/pseudo/lsp.json')).languages.kdvx).toMatch(/^\[.+\]$/);
  });

  it('3. The conformance test passes for Kadvex, and the protocol package type-checks', async () => {
    // The copy is complete: its build (awaited by the next test) runs beside these checks, which only read it.
    building = startBuild(scratch);
    const report = join(scratch.root, 'conformance.json');
    const conformance = ['test/integration/languages-conformance.test.ts', '-t', 'kdvx', '--reporter', 'json', '--outputFile', report];
    const typeCheck = scratch.nodeAsync(['node_modules/typescript/bin/tsc', '-p', 'packages/protocol', '--noEmit'], 300_000);
    void typeCheck.catch(() => undefined); // awaited below, after the conformance run
    await scratch.nodeAsync(['node_modules/vitest/vitest.mjs', 'run', '--project', 'integration', ...conformance], 600_000);
    const results = (
      JSON.parse(readFileSync(report, 'utf8')) as { testResults: Array<{ assertionResults: Array<{ fullName: string; status: string }> }> }
    ).testResults
      .flatMap((file) => file.assertionResults)
      .filter((test) => test.fullName.includes('kdvx'));
    // Its five checks ran (the filter kept them) and passed.
    expect(results.map((test) => test.status)).toEqual(['passed', 'passed', 'passed', 'passed', 'passed']);
    await typeCheck;
  }, 900_000);

  it('builds and starts the product of the changed copy (backend, agentctl, web)', async () => {
    await (building ?? startBuild(scratch));
    const archive = gzipSync(Buffer.from(`#!/bin/sh\nexec "${process.execPath}" "${fakeServerBundle}" "$@"\n`));
    const sha = createHash('sha256').update(archive).digest('hex');
    const files: Record<string, Buffer | string> = {};
    for (const triple of ['x86_64-unknown-linux-gnu', 'x86_64-unknown-linux-musl', 'aarch64-unknown-linux-gnu', 'aarch64-unknown-linux-musl']) {
      const name = `kdvx-language-server-${triple}.gz`;
      files[name] = archive;
      files[`${name}.sha256`] = `${sha}  ${name}\n`;
    }
    releases = await startReleaseServer(files);
    stack = await startStack({}, { checkout: scratch.root });
    work = join(stack.home, 'kdvx-task');
    mkdirSync(join(work, 'home'), { recursive: true });
    browser = await launchChromium();
    page = await (await newContext(browser.browser)).newPage();
    // From the first page load on: the status controls' states as they change.
    await recordLspStates(page);
  }, 1_800_000);

  it('catalog: GET /api/languages lists Kadvex as its descriptor says', async () => {
    const { languages } = await stack.api<{ languages: LanguageCatalogEntry[] }>('/api/languages');
    // The list's order is the settings' order: the new entry came last.
    expect(languages.at(-1)).toMatchObject({
      id: 'kdvx',
      name: 'Kadvex',
      extensions: ['.kdvx'],
      binary: 'kdvx-language-server',
      installStrategy: 'release',
      autoInstallable: true,
      experimental: true,
    });
  });

  it('settings: its card is listed; turning on auto-start and auto-install there is saved', async () => {
    await openSettings(page, stack.url);
    const card = page.locator('[data-testid="language-card"][data-language="kdvx"]');
    await expect.poll(() => card.locator('h3').innerText()).toBe('Kadvex');
    expect(await card.getByTestId('language-extensions').innerText()).toContain('.kdvx');
    await card.getByTestId('auto-start-toggle').check();
    await expect.poll(async () => (await stack.api<{ lsp_auto_start_languages: string[] }>('/api/settings')).lsp_auto_start_languages).toContain('kdvx');
    await card.getByTestId('auto-install-toggle').check();
    await expect.poll(async () => (await stack.api<{ lsp_auto_install_languages: string[] }>('/api/settings')).lsp_auto_install_languages).toContain('kdvx');
  });

  it('install recipe: opening a .kdvx file downloads the server from the mirror into the task HOME', async () => {
    writeFiles(join(work, 'workspace'), { 'scripts/hello.kdvx': SOURCE });
    const task = await stack.createTask({
      title: 'Kadvex',
      workspace: join(work, 'workspace'),
      env: {
        PATH: taskPath(),
        HOME: join(work, 'home'),
        KANDEV_KDVX_BASE_URL: releases.baseUrl,
        FAKE_LSP_SCRIPT: writeScript(work, SCRIPT),
        FAKE_LSP_LOG: logPath(),
      },
    });
    sessionId = (await stack.startSession(task.id)).id;
    await openSession(page, stack.url, sessionId);
    await openFile(page, 'scripts/hello.kdvx');
    await waitForLspState(page, 'kdvx', 'ready');
    expect(await lspStatesSeen(page)).toContain('kdvx:installing');
    const installed = join(work, 'home/.kandev/lsp-servers/kdvx/kdvx-language-server');
    expect(existsSync(installed) && statSync(installed).mode & 0o777).toBe(0o755);
    expect(releases.requests.some((r) => r.startsWith('/download/kdvx-language-server-'))).toBe(true);
    // Its status control names it with the locale's string, not the catalog's English.
    expect(await lspStatus(page, 'kdvx').innerText()).toContain(STRINGS.en!.name);
  });

  it('monaco: the file is a model of the Monaco language kdvx, coloured by the Lua Monarch grammar', async () => {
    expect(await withEditor(page, (editor) => editor.getModel().getLanguageId() as string)).toBe('kdvx');
    const classOf = (text: string) =>
      page.evaluate(
        (t) =>
          [...document.querySelectorAll('[data-testid="editor"][data-path="scripts/hello.kdvx"] .view-lines span span')]
            .map((s) => ({ text: (s.textContent ?? '').replace(/\u00a0/g, ' ').trim(), className: s.className }))
            .find((s) => s.text === t)?.className ?? '',
        text,
      );
    // The grammar arrives lazily: `local` (a keyword) and the comment stand apart from a name.
    await expect.poll(async () => (await classOf('local')) !== (await classOf('count')), { timeout: 30_000 }).toBe(true);
    expect(await classOf('-- a Kadvex script')).not.toBe(await classOf('count'));
  });

  it("icon: the file tree draws the descriptor's glyph and tone", async () => {
    const icon = await page.locator('[data-testid="tree-node"][data-path="scripts/hello.kdvx"] .file-icon').getAttribute('class');
    expect(icon).toContain('lucide-file-terminal');
    expect(icon).toContain('tone-shell');
  });

  it('the untrusted-workspace rule: untrusted, the server is told not to run project scripts; the trust dialog says so', async () => {
    const initialize = readLog(logPath()).find((l) => l.message.method === 'initialize');
    expect(initialize?.message.params.initializationOptions.kdvx).toEqual({ runProjectScripts: false });
    await page.getByTestId('workspace-trust-button').click();
    expect(await page.getByTestId('workspace-trust-dialog').innerText()).toContain(STRINGS.en!.trust);
    await screenshot(page, 'adding-a-language-kdvx-desktop-light');
    await page.keyboard.press('Escape');
  });

  it("Problems: the server's finding is listed under the file", async () => {
    await expect.poll(async () => (await problemRows(page, 'scripts/hello.kdvx')).join('\n'), { timeout: 30_000 }).toContain(FINDING);
  });
});
