/**
 * S26 in the browser: a task whose executor Kandev cannot run (remote Docker, SSH), created through
 * the API, opened from the task list as a user would. The session view shows the localized copy of
 * close code 4004 with the executor's name instead of a file tree or a generic "start failed"; the
 * backend starts no agentctl, the page opens no /lsp WebSocket, and opening it again reopens the
 * same failed session rather than recording another refused start.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CloseCode, type ExecutorKind, type Session, type Task } from '@kandev/protocol';
import { emulateScheme, expectTheme, openHome, screenshot } from '../support/app.js';
import { repoRoot } from '../support/build.js';
import { launchChromium, newContext, type LaunchedBrowser, type Viewport } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { startEditorStack } from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

type Catalog = Record<string, Record<string, string>>;
const catalog = (locale: string, ns: string): Catalog => JSON.parse(readFileSync(join(repoRoot, 'apps/web/src/locales', locale, `${ns}.json`), 'utf8'));
const executorName = (locale: string, executor: ExecutorKind): string =>
  (catalog(locale, 'common').tasks as unknown as { executor: Record<string, string> }).executor[executor] ?? executor;

/** Command lines of every live descendant of `pid` (read from /proc: the backend's process tree). */
function descendantCommands(pid: number): string[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) === pid && state !== 'Z') children.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return children.flatMap((child) => {
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${child}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      // exited while we looked
    }
    return [cmd, ...descendantCommands(child)];
  });
}

describe.runIf(run)('S26 unsupported executors in the browser', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  const lspSockets: string[] = [];
  const tasks: Partial<Record<ExecutorKind, Task>> = {};

  const sessionsOf = async (taskId: string) => (await stack.api<Task & { sessions: Session[] }>(`/api/tasks/${taskId}`)).sessions;

  beforeAll(async () => {
    stack = await startEditorStack();
    browser = await launchChromium();
    for (const executor of ['remote_docker', 'ssh'] as const) {
      tasks[executor] = await stack.api<Task>('/api/tasks', {
        body: { title: `Deploy via ${executor}`, executor, repositories: [{ path: '/workspace/app' }] },
      });
    }
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  async function pageFor(b: Browser, viewport: Viewport): Promise<Page> {
    const context = await newContext(b, viewport);
    const page = await context.newPage();
    page.on('websocket', (ws) => {
      if (new URL(ws.url()).pathname.startsWith('/lsp')) lspSockets.push(ws.url());
    });
    return page;
  }

  /** Opens the task from the list (Start session / Open) and waits for the session view's notice. */
  async function openFromList(page: Page, executor: ExecutorKind, locale?: string) {
    await openHome(page, stack.url, locale);
    const row = page.locator(`[data-testid="task-row"][data-task-id="${tasks[executor]!.id}"]`);
    await row.getByTestId('start-session').click();
    const notice = page.getByTestId('session-unsupported');
    await notice.waitFor();
    return notice;
  }

  async function expectNotice(page: Page, executor: ExecutorKind, locale: string) {
    const notice = page.getByTestId('session-unsupported');
    expect(await notice.getAttribute('data-executor')).toBe(executor);
    const text = await notice.innerText();
    const lsp = catalog(locale, 'lsp');
    expect(text).toContain(lsp.close!['4004']);
    expect(text).toContain(lsp.guidance!.unsupportedExecutor);
    const name = executorName(locale, executor);
    expect(text).toContain(catalog(locale, 'workbench').sessions!.unsupportedExecutor!.replace('{{executor}}', name));
    // No workbench behind it, nothing that would start a session again, no generic failure.
    expect(
      await page.locator('[data-testid="session-new"], [data-testid="session-stop"], [data-testid="session-ended"], [role="tree"], .monaco-editor').count(),
    ).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
  }

  it('S26 a remote_docker task opened from the list shows the 4004 copy in English, and reopening records no second session', async () => {
    const page = await pageFor(browser.browser, 'desktop');
    const task = tasks.remote_docker!;
    await openFromList(page, 'remote_docker');
    const [refused] = await sessionsOf(task.id);
    expect(refused).toMatchObject({ status: 'failed' });
    expect(await page.getByTestId('session-view').getAttribute('data-session-id')).toBe(refused!.id);
    await expectNotice(page, 'remote_docker', 'en');
    await screenshot(page, 's26-unsupported-desktop-en');
    await emulateScheme(page, 'dark');
    await expectTheme(page, 'dark');
    await screenshot(page, 's26-unsupported-desktop-en-dark');
    await emulateScheme(page, 'light');

    // Back to the list: the task offers Open, which shows the same failed session again.
    await openHome(page, stack.url);
    const row = page.locator(`[data-testid="task-row"][data-task-id="${task.id}"]`);
    expect(await row.getByTestId('start-session').innerText()).toBe('Open');
    await row.getByTestId('start-session').click();
    await page.locator(`[data-testid="session-view"][data-session-id="${refused!.id}"] [data-testid="session-unsupported"]`).waitFor();
    expect((await sessionsOf(task.id)).map((s) => s.id)).toEqual([refused!.id]);
    await page.context().close();
  });

  it('S26 an ssh task shows the same copy in pt-pt on a tablet, and on a phone', async () => {
    const tablet = await pageFor(browser.browser, 'tablet');
    await openFromList(tablet, 'ssh', 'pt-pt');
    await expectNotice(tablet, 'ssh', 'pt-pt');
    await screenshot(tablet, 's26-unsupported-tablet-pt-pt');
    await tablet.context().close();

    const phone = await pageFor(browser.browser, 'phone');
    await openFromList(phone, 'ssh', 'pt-pt');
    await expectNotice(phone, 'ssh', 'pt-pt');
    expect(await phone.locator('.phone-layout').count()).toBe(0);
    await screenshot(phone, 's26-unsupported-phone-pt-pt');
    await phone.context().close();
    expect((await sessionsOf(tasks.ssh!.id)).map((s) => s.status)).toEqual(['failed']);
  });

  it('S26 the backend started no agentctl and the pages opened no /lsp WebSocket', () => {
    expect(descendantCommands(stack.process.pid!).filter((cmd) => cmd.includes('agentctl'))).toEqual([]);
    expect(lspSockets).toEqual([]);
  });

  it('S26 an editor that starts LSP for the session anyway (its signed-in /lsp socket) is refused with 4004 and nothing starts or resumes', async () => {
    const context = await newContext(browser.browser, 'desktop');
    const page = await context.newPage();
    await openHome(page, stack.url);
    const refused = (await sessionsOf(tasks.remote_docker!.id))[0]!;
    // The socket the editor's connection opens for a TypeScript file, with the page's own cookie.
    const close = await page.evaluate(
      (path) =>
        new Promise<{ code: number; frames: string[] }>((resolve) => {
          const frames: string[] = [];
          const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}${path}`);
          ws.onmessage = (event) => frames.push(String(event.data));
          ws.onclose = (event) => resolve({ code: event.code, frames });
        }),
      `/lsp/${refused.id}?language=typescript`,
    );
    expect(close).toEqual({ code: CloseCode.ExecutorUnsupported, frames: [] });
    expect(descendantCommands(stack.process.pid!).filter((cmd) => cmd.includes('agentctl'))).toEqual([]);
    expect((await sessionsOf(tasks.remote_docker!.id)).map((s) => [s.id, s.status])).toEqual([[refused.id, 'failed']]);
    await context.close();
  });
});
