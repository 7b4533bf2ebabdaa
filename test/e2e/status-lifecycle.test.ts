/**
 * Lifecycle and close codes as people see them, in Chromium against the real stack: the fake
 * language server (installed as kotlin-lsp) or a really missing server drives each state, the
 * backend's own close codes are witnessed on the wire, and the page must show catalog copy
 * (en, pt-pt, zh-cn) with the right action. Elapsed time and the 60 s notice run on Playwright's
 * fake clock: no test waits a real minute.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { ensureBuilt } from '../support/build.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { installFakeServer, readLog, writeKotlinWorkspace, writeScript } from '../support/fakeServer.js';
import {
  closeLspSocketsWith,
  lspPanel,
  lspStatesSeen,
  lspStatus,
  openFile,
  openLspPanel,
  openSessionInLocale,
  recordLspStates,
  startEditorStack,
  waitForLspState,
  witnessLspSockets,
  type LspSocketWitness,
} from '../support/page.js';
import { taskPath, type RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

/**
 * The reasons the backend gave when it closed the page's /lsp sockets. These closes carry none (the
 * page shows localized copy per code), so a reason appearing is itself a failure; any reason that
 * does come is then checked against the page's text as well.
 */
function closeReasons(witness: LspSocketWitness): string[] {
  expect(witness.closes.length, 'the backend closed an /lsp socket').toBeGreaterThan(0);
  const reasons = witness.closes.flatMap((close) => (close.reason ? [close.reason] : []));
  expect(reasons, 'a close code with no reason text').toEqual([]);
  return reasons;
}

describe.runIf(run)('LSP lifecycle and close codes in the browser', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let root: string;
  const contexts: BrowserContext[] = [];
  let n = 0;

  beforeAll(async () => {
    ensureBuilt('fake-lsp-server');
    root = mkdtempSync(join(tmpdir(), 'kandev-status-lifecycle-'));
    // Its own snapshot of the built web app: a rebuild by another suite cannot swap assets mid-test.
    // These suites are about a server's final exit (4006, Retry); restarts are covered in faults-restart.
    stack = await startEditorStack({ KANDEV_LSP_RESTART_LIMIT: '0' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await stack?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  function workspace(): string {
    return writeKotlinWorkspace(join(root, `ws-${++n}`), {
      'build.gradle.kts': 'plugins { kotlin("jvm") version "2.1.0" }\n',
      'main.go': 'package main\n\nfunc main() {}\n',
      'go.mod': 'module example.com/demo\n\ngo 1.19\n',
      'lib.rs': 'fn main() {}\n',
    });
  }

  /** A session whose task PATH has the fake server as kotlin-lsp (unless `missing`), with its own log. */
  async function kotlinSession(script: FakeScript = {}, options: { missing?: boolean; shim?: string; env?: Record<string, string> } = {}) {
    const id = ++n;
    const binDir = join(root, `bin-${id}`);
    mkdirSync(binDir, { recursive: true });
    if (options.shim !== undefined) {
      writeFileSync(join(binDir, 'kotlin-lsp'), options.shim);
      chmodSync(join(binDir, 'kotlin-lsp'), 0o755);
    } else if (!options.missing) installFakeServer(binDir, 'kotlin-lsp');
    const log = join(root, `fake-${id}.jsonl`);
    const task = await stack.createTask({
      title: `status ${id}`,
      workspace: workspace(),
      env: { PATH: taskPath(binDir), FAKE_LSP_SCRIPT: writeScript(root, script), FAKE_LSP_LOG: log, ...options.env },
    });
    // The workspace is a Gradle project: kotlin-lsp may import it only when trusted (docs/workspace-trust.md).
    await stack.api(`/api/tasks/${task.id}`, { method: 'PATCH', body: { trustWorkspaceTools: true } });
    const session = await stack.startSession(task.id);
    return { sessionId: session.id, log };
  }

  async function newPage(): Promise<Page> {
    const context = await newContext(browser.browser, 'desktop');
    contexts.push(context);
    return context.newPage();
  }

  const initializeCount = (log: string) => readLog(log).filter((l) => l.message.method === 'initialize').length;

  it('S39 S41 a launched Kotlin server waiting for initialize: elapsed time grows, no ETA; after 60 s the Gradle notice, Stop kept, no automatic restart', async () => {
    const { sessionId, log } = await kotlinSession({ rules: { initialize: [{ delayMs: 900_000 }] } });
    const page = await newPage();
    const witness = await witnessLspSockets(page);
    await page.clock.install();
    await openSessionInLocale(page, stack.url, sessionId, 'en');
    await openFile(page, 'src/Main.kt');
    await lspStatus(page, 'kotlin').getByTestId('lsp-start').click();
    await waitForLspState(page, 'kotlin', 'starting', 60_000);
    await expect.poll(() => initializeCount(log), { timeout: 30_000 }).toBe(1);

    const panel = await openLspPanel(page, 'kotlin');
    await expect.poll(() => panel.getByTestId('lsp-readiness').innerText()).toBe('Server process started, waiting for initialize');
    await expect.poll(() => panel.getByTestId('lsp-elapsed').innerText()).toMatch(/^Elapsed: \d+ seconds?$/);
    const before = Number(await panel.getByTestId('lsp-elapsed').getAttribute('data-elapsed-ms'));
    await page.clock.fastForward(20_000);
    await expect.poll(async () => Number(await panel.getByTestId('lsp-elapsed').getAttribute('data-elapsed-ms'))).toBeGreaterThanOrEqual(before + 20_000);
    expect(await panel.getByTestId('lsp-elapsed').innerText()).toMatch(/^Elapsed: \d+ seconds$/);
    expect(await panel.getByTestId('lsp-long-running').count()).toBe(0);
    expect(await panel.innerText()).not.toMatch(/remaining|ETA|estimated|left\b/i);
    expect(await panel.innerText()).not.toContain('Ready');

    await page.clock.fastForward(41_000);
    await expect
      .poll(() => panel.getByTestId('lsp-long-running').innerText())
      .toMatch(/^Initialization is taking longer than usual \(1 minute( \d+ seconds?)? so far\)\. Kotlin LSP may still be importing the Gradle project/);
    expect(await panel.getByTestId('lsp-stop').isVisible()).toBe(true);
    expect(await lspStatus(page, 'kotlin').getByTestId('lsp-stop').isVisible()).toBe(true);

    // Ten more (fake) minutes: nothing restarts, times out, or releases the server.
    await page.clock.fastForward(10 * 60_000);
    await page.waitForTimeout(500);
    expect(await lspStatus(page, 'kotlin').getAttribute('data-state')).toBe('starting');
    expect(await panel.getByTestId('lsp-long-running').innerText()).toMatch(/\(11 minutes( \d+ seconds?)? so far\)/);
    expect(witness.opened).toHaveLength(1);
    expect(witness.closes).toEqual([]);
    expect(witness.sent.filter((f) => f.includes('"control"'))).toEqual([]);
    expect(initializeCount(log)).toBe(1);

    await panel.getByTestId('lsp-stop').click();
    await waitForLspState(page, 'kotlin', 'off', 60_000);
    expect(witness.sent.filter((f) => f.includes('"control"'))).toEqual(['{"control":"release","reason":"stop"}']);
    expect(await lspPanel(page).getByTestId('lsp-start').isVisible()).toBe(true);
    expect(await lspPanel(page).getByTestId('lsp-elapsed').count()).toBe(0);
  });

  it('S40 elapsed units and their composition come from the zh-cn and pt-pt catalogs', async () => {
    const { sessionId } = await kotlinSession({ rules: { initialize: [{ delayMs: 900_000 }] } });
    // One window per locale, side by side (each starts a server of its own lease and runs its own
    // page clock): their page loads and their Stops, which wait for the stuck server to be reaped,
    // overlap instead of queueing.
    const cases = [
      ['zh-cn', /^已用时间：2 分钟( \d+ 秒)?$/, /初始化耗时比平常更长（目前已用 2 分钟( \d+ 秒)?）。Kotlin LSP 可能仍在导入 Gradle 项目/],
      [
        'pt-pt',
        /^Tempo decorrido: 2 minutos( e \d+ segundos?)?$/,
        /A inicialização está a demorar mais do que o habitual \(2 minutos( e \d+ segundos?)? até agora\)\. O Kotlin LSP pode ainda estar a importar o projeto Gradle/,
      ],
    ] as const;
    await Promise.all(
      cases.map(async ([locale, elapsed, notice]) => {
        const page = await newPage();
        await page.clock.install();
        await openSessionInLocale(page, stack.url, sessionId, locale);
        await openFile(page, 'src/Main.kt');
        await lspStatus(page, 'kotlin').getByTestId('lsp-start').click();
        await waitForLspState(page, 'kotlin', 'starting', 60_000);
        const panel = await openLspPanel(page, 'kotlin');
        await page.clock.fastForward(120_000);
        await expect.poll(() => panel.getByTestId('lsp-elapsed').innerText()).toMatch(elapsed);
        await expect.poll(() => panel.getByTestId('lsp-long-running').innerText()).toMatch(notice);
        expect(await panel.innerText(), locale).not.toMatch(/\b(seconds?|minutes?)\b/);
        await panel.getByTestId('lsp-stop').click();
        await waitForLspState(page, 'kotlin', 'off', 60_000);
      }),
    );
  });

  it('S03 a missing kotlin-lsp closes 4007: Kotlin manual-setup guidance, Retry, and no installation attempted', async () => {
    const { sessionId } = await kotlinSession({}, { missing: true });
    const page = await newPage();
    await recordLspStates(page);
    const witness = await witnessLspSockets(page);
    await openSessionInLocale(page, stack.url, sessionId, 'en');
    await openFile(page, 'src/Main.kt');
    await lspStatus(page, 'kotlin').getByTestId('lsp-start').click();
    await waitForLspState(page, 'kotlin', 'unavailable', 60_000);
    expect(witness.closes.map((c) => c.code)).toEqual([4007]);
    const status = lspStatus(page, 'kotlin');
    expect(await status.getByTestId('lsp-message').innerText()).toBe(
      'kotlin-lsp is not installed on the task host, and Kandev never installs it automatically.',
    );
    expect(await status.getByTestId('lsp-guidance').innerText()).toBe(
      "Set it up by hand: download the Kotlin LSP release from JetBrains, put kotlin-lsp on the task host's PATH, then press Retry.",
    );
    expect(await status.getByTestId('lsp-retry').isVisible()).toBe(true);
    expect(await status.getByTestId('lsp-start').count()).toBe(0);
    const seen = await lspStatesSeen(page);
    expect(seen).toContain('kotlin:unavailable');
    expect(seen.filter((s) => s === 'kotlin:installing')).toEqual([]);
    const panel = await openLspPanel(page, 'kotlin');
    expect(await panel.getByTestId('lsp-panel-guidance').innerText()).toContain("put kotlin-lsp on the task host's PATH");
    expect(await panel.getByTestId('lsp-open-settings').count()).toBe(0);
    const body = await page.locator('body').innerText();
    for (const reason of closeReasons(witness)) expect(body).not.toContain(reason);
  });

  it('S04 a missing auto-installable server (4001) in pt-pt shows the localized message and enable-auto-install guidance, never the close reason', async () => {
    // rust-analyzer is off this PATH and out of this HOME; auto-install is off by default.
    const home = join(root, 'home-rust');
    mkdirSync(home, { recursive: true });
    const { sessionId } = await kotlinSession({}, { env: { PATH: '/usr/bin:/bin', HOME: home } });
    const page = await newPage();
    const witness = await witnessLspSockets(page);
    await openSessionInLocale(page, stack.url, sessionId, 'pt-pt');
    await openFile(page, 'lib.rs');
    await lspStatus(page, 'rust').getByTestId('lsp-start').click();
    await waitForLspState(page, 'rust', 'unavailable', 60_000);
    expect(witness.closes.map((c) => c.code)).toEqual([4001]);
    const status = lspStatus(page, 'rust');
    expect(await status.getByTestId('lsp-message').innerText()).toBe(
      'O servidor de linguagem Rust não está instalado no anfitrião da tarefa e a instalação automática está desativada para ele.',
    );
    expect(await status.getByTestId('lsp-guidance').innerText()).toContain('Ative a instalação automática de Rust nas definições dos Editores');
    expect(await status.getByTestId('lsp-retry').innerText()).toBe('Tentar novamente');
    const panel = await openLspPanel(page, 'rust');
    expect(await panel.getByTestId('lsp-open-settings').innerText()).toBe('Abrir as definições dos Editores');
    expect(await panel.getByTestId('lsp-open-settings').getAttribute('href')).toBe('#/settings');
    const body = await page.locator('body').innerText();
    for (const reason of closeReasons(witness)) expect(body).not.toContain(reason);
    expect(body).not.toMatch(/not installed on the task host|auto-install is off/);
  });

  it('S04 a 4001 whose close reason carries task-host prose still renders only the pt-pt catalog message', async () => {
    const { sessionId } = await kotlinSession();
    const page = await newPage();
    const prose = 'agentctl: rust-analyzer not found on PATH=/usr/bin (set autoInstall=true)';
    await closeLspSocketsWith(page, 4001, prose);
    await openSessionInLocale(page, stack.url, sessionId, 'pt-pt');
    await openFile(page, 'lib.rs');
    await lspStatus(page, 'rust').getByTestId('lsp-start').click();
    await waitForLspState(page, 'rust', 'unavailable', 30_000);
    expect(await lspStatus(page, 'rust').getByTestId('lsp-message').innerText()).toContain('O servidor de linguagem Rust não está instalado');
    expect(await page.locator('body').innerText()).not.toContain('agentctl');
  });

  it('S12 a detailed go install failure stays visible after the generic 4003 close', async () => {
    await stack.api('/api/settings', { method: 'PUT', body: { lsp_auto_install_languages: ['go'] } });
    const home = join(root, 'home-go');
    mkdirSync(home, { recursive: true });
    // Only the Go toolchain on PATH (no gopls), and no module proxy: `go install` fails at once with its own message.
    const { sessionId } = await kotlinSession(
      {},
      {
        env: {
          PATH: '/usr/lib/go/bin',
          HOME: home,
          GOPATH: join(home, 'go'),
          GOCACHE: join(home, 'cache'),
          GOPROXY: 'off',
          GOTOOLCHAIN: 'local',
          GOFLAGS: '-mod=mod',
        },
      },
    );
    const page = await newPage();
    await recordLspStates(page);
    const witness = await witnessLspSockets(page);
    await openSessionInLocale(page, stack.url, sessionId, 'en');
    await openFile(page, 'main.go');
    await waitForLspState(page, 'go', 'error', 120_000);
    expect(witness.closes.map((c) => c.code)).toEqual([4003]);
    expect(await lspStatesSeen(page)).toContain('go:installing');
    const message = await lspStatus(page, 'go').getByTestId('lsp-message').innerText();
    expect(message).toMatch(/GOPROXY=off/);
    expect(message).not.toBe('Installing the Go language server failed.');
    const panel = await openLspPanel(page, 'go');
    expect(await panel.getByTestId('lsp-panel-message').innerText()).toMatch(/GOPROXY=off/);
    expect(await panel.getByTestId('lsp-retry').isVisible()).toBe(true);
    await stack.api('/api/settings', { method: 'PUT', body: { lsp_auto_install_languages: [] } });
  });

  it('S13 a 4003 with generic task-host prose and no installer detail renders the zh-cn fallback, never the reason', async () => {
    const { sessionId } = await kotlinSession();
    const page = await newPage();
    await closeLspSocketsWith(page, 4003, 'agentctl: install failed: exit status 1 in /root/.kandev/lsp-servers');
    await openSessionInLocale(page, stack.url, sessionId, 'zh-cn');
    await openFile(page, 'main.go');
    await waitForLspState(page, 'go', 'error', 30_000);
    const status = lspStatus(page, 'go');
    expect(await status.getByTestId('lsp-message').innerText()).toBe('Go 语言服务器安装失败。');
    expect(await status.getByTestId('lsp-retry').innerText()).toBe('重试');
    const body = await page.locator('body').innerText();
    expect(body).not.toContain('agentctl');
    expect(body).not.toContain('exit status');
  });

  it('S29 a server that rejects initialize shows its own error.message, never [object Object]', async () => {
    const { sessionId } = await kotlinSession({
      rules: {
        initialize: [{ error: { code: -32603, message: 'Gradle JVM is not configured: set JAVA_HOME for the task host', data: { trace: ['a', 'b'] } } }],
      },
    });
    const page = await newPage();
    await openSessionInLocale(page, stack.url, sessionId, 'en');
    await openFile(page, 'src/Main.kt');
    await lspStatus(page, 'kotlin').getByTestId('lsp-start').click();
    await waitForLspState(page, 'kotlin', 'error', 60_000);
    expect(await lspStatus(page, 'kotlin').getByTestId('lsp-message').innerText()).toBe('Gradle JVM is not configured: set JAVA_HOME for the task host');
    const panel = await openLspPanel(page, 'kotlin');
    expect(await panel.getByTestId('lsp-panel-message').innerText()).toBe('Gradle JVM is not configured: set JAVA_HOME for the task host');
    expect(await page.locator('body').innerText()).not.toContain('[object Object]');
  });

  it('S31 a server that exits after initialize closes 4006: the localized exited error with Retry, and Retry starts it again', async () => {
    const marker = join(root, 'exit-once');
    const { sessionId, log } = await kotlinSession({ rules: { initialized: [{ once: marker, actions: [{ delayMs: 300 }, { exit: 3 }] }] } });
    const page = await newPage();
    const witness = await witnessLspSockets(page);
    await openSessionInLocale(page, stack.url, sessionId, 'pt-pt');
    await openFile(page, 'src/Main.kt');
    await lspStatus(page, 'kotlin').getByTestId('lsp-start').click();
    await waitForLspState(page, 'kotlin', 'error', 60_000);
    expect(witness.closes.map((c) => c.code)).toEqual([4006]);
    expect(await lspStatus(page, 'kotlin').getByTestId('lsp-message').innerText()).toBe('O servidor de linguagem Kotlin parou inesperadamente.');
    await lspStatus(page, 'kotlin').getByTestId('lsp-retry').click();
    await waitForLspState(page, 'kotlin', 'ready', 60_000);
    expect(initializeCount(log)).toBe(2);
    expect(new Set(readLog(log).map((l) => l.pid)).size).toBe(2);
  });

  it('S28 an executable that cannot be launched closes 4008: localized start failure, details stay in the task-host logs', async () => {
    const { sessionId } = await kotlinSession({}, { shim: '#!/nonexistent/interpreter\n' });
    const page = await newPage();
    const witness = await witnessLspSockets(page);
    await openSessionInLocale(page, stack.url, sessionId, 'en');
    await openFile(page, 'src/Main.kt');
    await lspStatus(page, 'kotlin').getByTestId('lsp-start').click();
    await waitForLspState(page, 'kotlin', 'error', 60_000);
    expect(witness.closes.map((c) => c.code)).toEqual([4008]);
    expect(await lspStatus(page, 'kotlin').getByTestId('lsp-message').innerText()).toBe(
      "The Kotlin language server could not be started. The details are in the task host's logs.",
    );
    expect(await page.locator('body').innerText()).not.toMatch(/nonexistent|ENOENT|spawn/);
  });
});
