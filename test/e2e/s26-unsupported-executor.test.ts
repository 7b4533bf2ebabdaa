/**
 * S26 in the browser: a task whose executor Kandev cannot run (remote Docker, SSH), created through
 * the API, opened from the task list as a user would. The session view shows the localized copy of
 * close code 4004 with the executor's name instead of a file tree or a generic "start failed"; the
 * backend starts no agentctl, the page opens no /lsp WebSocket, and opening it again reopens the
 * same failed session rather than recording another refused start. A link straight to a file in
 * such a session mounts no editor either.
 *
 * The tasks name a real folder (a copy of the demo workspace), so that a backend that ran them
 * anyway would really start agentctl there and a page that trusted it would really open the file:
 * each "nothing started" check has something to find when the executor check is taken out.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CloseCode, type ExecutorKind, type Session, type Task } from '@kandev/protocol';
import { emulateScheme, expectTheme, openHome, screenshot } from '../support/app.js';
import { repoRoot } from '../support/build.js';
import { launchChromium, newContext, type LaunchedBrowser, type Viewport } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { startEditorStack } from '../support/page.js';
import { copyDemoWorkspace, type RunningStack } from '../support/stack.js';

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

/** What the backend logs about a refused session: its failed start, then any /lsp socket it refused. */
const REFUSAL_EVENTS = new Set(['session_failed', 'lsp_refused', 'lsp_closed']);

/** The backend's structured log lines (logs/backend.log) that name `sessionId`. */
function backendLogEvents(home: string, sessionId: string): Array<{ event: string; reason?: string }> {
  const path = join(home, 'logs', 'backend.log');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.includes(sessionId))
    .map((line) => JSON.parse(line) as { event: string; reason?: string });
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
        body: { title: `Deploy via ${executor}`, executor, repositories: [{ path: copyDemoWorkspace() }] },
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

  /**
   * What a start leaves behind, for every session recorded for these tasks: the backend's log lines
   * about it (once its refusal is written: the log is written asynchronously) and agentctl's own log
   * file, which the backend names before it spawns agentctl and agentctl writes itself.
   */
  async function expectNothingStarted(): Promise<void> {
    const recorded = [...(await sessionsOf(tasks.remote_docker!.id)), ...(await sessionsOf(tasks.ssh!.id))];
    expect(recorded.length).toBeGreaterThanOrEqual(2);
    for (const session of recorded) {
      await expect.poll(() => backendLogEvents(stack.home, session.id).length, { timeout: 10_000 }).toBeGreaterThan(0);
      // Its refusal, and the refusals of /lsp sockets for it: nothing that starts, runs or resumes a task host.
      const events = backendLogEvents(stack.home, session.id);
      expect(events[0]).toMatchObject({ event: 'session_failed', reason: 'executor_unsupported' });
      expect(events.filter((e) => !REFUSAL_EVENTS.has(e.event))).toEqual([]);
      expect(events.filter((e) => e.event === 'lsp_refused').every((e) => e.reason === 'executor_unsupported')).toBe(true);
      expect(existsSync(join(stack.home, 'logs', `agentctl-${session.id}.log`)), session.id).toBe(false);
    }
    expect(descendantCommands(stack.process.pid!).filter((cmd) => cmd.includes('agentctl'))).toEqual([]);
  }

  it('S26 the backend started no agentctl (no session_starting, no agentctl log) and the pages opened no /lsp WebSocket', async () => {
    await expectNothingStarted();
    expect(lspSockets).toEqual([]);
  });

  it('S26 a link that opens src/main.ts in the remote_docker session mounts no editor: the notice instead, no file read, no model, no /lsp socket', async () => {
    const page = await pageFor(browser.browser, 'desktop');
    const task = tasks.remote_docker!;
    // The session opening from the list recorded; when this test runs alone, a start through the API
    // (refused with 422, which still records the failed session).
    if ((await sessionsOf(task.id)).length === 0) await stack.startSession(task.id).catch(() => undefined);
    const refused = (await sessionsOf(task.id))[0]!;
    const fileRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith(`/api/sessions/${refused.id}/file`)) fileRequests.push(request.url());
    });
    const socketsBefore = lspSockets.length;
    await page.goto(`${stack.url}/#/sessions/${refused.id}?file=src/main.ts&line=1&column=1`);
    // Whichever the page settles on first: the notice, an editor on the file, or an ended session.
    await page
      .locator(`[data-testid="session-view"][data-session-id="${refused.id}"]`)
      .locator('[data-testid="session-unsupported"], [data-testid="editor"], [data-testid="session-ended"]')
      .first()
      .waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-testid="editor"]').count()).toBe(0);
    await expectNotice(page, 'remote_docker', 'en');
    expect(await page.locator('[data-testid="editor"], [data-testid="editor-tab"]').count()).toBe(0);
    // The page has painted what it has: still no editor, no model of the file, nothing read or opened.
    await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
    expect(await page.locator('.monaco-editor, [data-testid="editor"]').count()).toBe(0);
    // No Monaco model of this session at all (none when Monaco was never even loaded).
    const models = await page.evaluate((sid) => {
      const monaco = (window as any).__kandev?.monaco;
      return monaco
        ? (monaco.editor.getModels() as Array<{ uri: { authority: string; path: string } }>).filter((m) => m.uri.authority === sid).map((m) => m.uri.path)
        : [];
    }, refused.id);
    expect(models).toEqual([]);
    expect(fileRequests).toEqual([]);
    expect(lspSockets.slice(socketsBefore)).toEqual([]);
    await page.context().close();
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
    await expectNothingStarted();
    expect((await sessionsOf(tasks.remote_docker!.id)).map((s) => [s.id, s.status])).toEqual([[refused.id, 'failed']]);
    await context.close();
  });
});
