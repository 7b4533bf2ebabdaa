/**
 * S56 in Chromium with a real installer: auto-install of gopls runs a real `go install` (Debian's
 * Go, against a local file GOPROXY serving a slow-to-compile stand-in module; no network), and the
 * task host is torn down (agentctl gets SIGTERM) while Go compiles. The browser gets close 1001
 * with no reason text and shows the localized copy (zh-cn); nothing of the install survives and
 * nothing is published.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFakeGoplsProxy } from '../fixtures/goproxy/proxy.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { lspStatus, openFile, openSessionInLocale, putSettings, startEditorStack, waitForLspState, witnessLspSockets } from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

const goBinary = ['/usr/bin/go', '/usr/local/go/bin/go'].find((p) => existsSync(p));
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)') && prerequisite(goBinary !== undefined, 'Go (Debian package golang-go)');

/** Running processes whose environment has `HOME=<home>`: the task's agentctl and everything it started. */
function processesWithHome(home: string): number[] {
  const needle = `HOME=${home}\0`;
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        return state !== 'Z' && `\0${readFileSync(`/proc/${pid}/environ`, 'latin1')}`.includes(`\0${needle}`);
      } catch {
        return false;
      }
    });
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

describe.runIf(run)('S56 teardown during a real install, in the browser', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let root: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'kandev-faults-install-'));
    stack = await startEditorStack();
    await putSettings(stack, { lsp_auto_start_languages: ['go'], lsp_auto_install_languages: ['go'] });
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await stack?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('S56 agentctl torn down while go install compiles: close 1001 without reason, localized copy, no descendant left, nothing published', async () => {
    const proxy = writeFakeGoplsProxy(join(root, 'proxy'), 'v0.0.3-slow', { slowCompileFunctions: 4000 });
    // A PATH with Go and nothing else (on Debian /bin is /usr/bin, which holds a real gopls).
    const tools = join(root, 'tools');
    mkdirSync(tools);
    symlinkSync(realpathSync(goBinary!), join(tools, 'go'));
    const home = join(root, 'home');
    const gobin = join(root, 'gobin');
    mkdirSync(home);
    mkdirSync(gobin);
    const workspace = join(root, 'workspace');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'go.mod'), 'module example.com/s56\n\ngo 1.19\n');
    writeFileSync(join(workspace, 'main.go'), 'package main\n\nfunc main() {}\n');
    const task = await stack.api<{ id: string }>('/api/tasks', {
      body: {
        title: 'S56',
        executor: 'local_pc',
        repositories: [{ path: workspace }],
        env: { PATH: tools, HOME: home, GOBIN: gobin, GOPROXY: proxy, GOSUMDB: 'off', GOFLAGS: '-mod=mod -modcacherw', GOTOOLCHAIN: 'local' },
      },
    });
    const session = await stack.startSession(task.id);

    const context = await newContext(browser.browser, 'desktop');
    contexts.push(context);
    const page = await context.newPage();
    const witness = await witnessLspSockets(page);
    await openSessionInLocale(page, stack.url, session.id, 'zh-cn');
    await openFile(page, 'main.go');
    await waitForLspState(page, 'go', 'installing', 60_000);
    // Mid-install: `go install` runs its compiler (cold build cache, a slow module).
    let tree: number[] = [];
    await expect
      .poll(
        () => {
          tree = processesWithHome(home);
          return tree.some((pid) => /\/compile /.test(cmdline(pid)));
        },
        { timeout: 120_000, interval: 50 },
      )
      .toBe(true);
    const agentctl = tree.find((pid) => cmdline(pid).includes('agentctl'));
    expect(agentctl).toBeDefined();

    process.kill(agentctl as number, 'SIGTERM');
    await waitForLspState(page, 'go', 'error', 60_000);
    expect(witness.closes).toEqual([{ code: 1001, reason: '' }]);
    expect(await lspStatus(page, 'go').getByTestId('lsp-message').innerText()).toBe('任务主机在关闭时停止了此语言服务器。请在任务主机运行后重新启动。');
    expect(await page.locator('body').innerText()).not.toMatch(/SIGTERM|go install|compile/);
    // agentctl drains the cancelled install before it exits; it is not our child, so its end is polled.
    await expect.poll(() => processesWithHome(home), { timeout: 60_000 }).toEqual([]);
    expect(readdirSync(gobin)).toEqual([]);
    expect(existsSync(join(home, '.kandev', 'lsp-servers', 'gopls'))).toBe(false);
  });
});
