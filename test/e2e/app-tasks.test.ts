/**
 * Tasks and sessions as a new user drives them in Chromium: create a task in the browser (with the
 * backend's path checks shown at the field), open it (a second open resumes the running session),
 * start a new session and stop one explicitly, rename the task, and delete it while a session runs
 * (the session is stopped first, after a confirmation).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { Session, Task } from '@kandev/protocol';
import { openHome, screenshot } from '../support/app.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { startEditorStack } from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

describe.runIf(run)('tasks and sessions in the browser', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let context: BrowserContext;
  let page: Page;
  let root: string;
  let folder: string;
  const title = 'Billing: round totals';

  const tasks = async () => (await stack.api<{ tasks: Array<Task & { sessions: Session[] }> }>('/api/tasks')).tasks;
  const taskByTitle = async (t: string) => (await tasks()).find((x) => x.title === t);
  const row = (taskId: string) => page.locator(`[data-testid="task-row"][data-task-id="${taskId}"]`);

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'kandev-app-tasks-'));
    folder = join(root, 'billing');
    mkdirSync(join(folder, 'src'), { recursive: true });
    writeFileSync(join(folder, 'src', 'total.ts'), 'export const total = (a: number, b: number) => a + b;\n');
    writeFileSync(join(root, 'notes.txt'), 'not a folder\n');
    stack = await startEditorStack();
    browser = await launchChromium();
    context = await newContext(browser.browser, 'desktop');
    page = await context.newPage();
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await stack?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('creates a task from the browser; the backend refuses a missing folder and a file, shown at the field', async () => {
    await openHome(page, stack.url);
    await page.getByTestId('tasks-empty').waitFor();
    await screenshot(page, 'tasks-empty-desktop-light');
    await page.getByTestId('new-task').click();
    const dialog = page.getByTestId('create-task-dialog');
    await dialog.waitFor();
    // Only Local PC and Local Docker can be chosen; the others say why not.
    const executors = dialog.locator('[data-testid="task-executor"]');
    expect(await executors.evaluateAll((els) => els.map((e) => `${(e as HTMLInputElement).value}:${(e as HTMLInputElement).disabled}`))).toEqual([
      'local_pc:false',
      'local_docker:false',
      'remote_docker:true',
      'ssh:true',
      'sprites:true',
    ]);
    expect(await dialog.getByText('Not available yet', { exact: false }).count()).toBe(3);

    await page.getByTestId('task-title-input').fill(title);
    await page.getByTestId('task-repo-input').fill(join(root, 'missing'));
    await page.getByTestId('create-task-submit').click();
    const error = dialog.locator('[data-testid="task-error"][data-field="repositories"][data-index="0"]');
    await expect.poll(() => error.innerText().catch(() => '')).toBe('This folder does not exist.');
    expect(await page.getByTestId('task-repo-input').getAttribute('aria-invalid')).toBe('true');

    await page.getByTestId('task-repo-input').fill(join(root, 'notes.txt'));
    await page.getByTestId('create-task-submit').click();
    await expect.poll(() => error.innerText().catch(() => '')).toBe('This path is a file, not a folder.');
    expect(await taskByTitle(title)).toBeUndefined();

    await page.getByTestId('task-repo-input').fill(folder);
    await page.getByTestId('create-task-submit').click();
    await dialog.waitFor({ state: 'detached' });
    const created = await taskByTitle(title);
    expect(created).toMatchObject({ executor: 'local_pc', repositories: [{ path: folder }] });
    await row(created!.id).getByText(title).waitFor();
  });

  it('opening a task starts a session once, then resumes it; the header shows title and executor', async () => {
    const task = (await taskByTitle(title))!;
    await row(task.id).getByTestId('start-session').click();
    const view = page.getByTestId('session-view');
    await view.waitFor();
    const first = (await view.getAttribute('data-session-id'))!;
    await page.locator('[data-testid="session-task-title"]', { hasText: title }).waitFor();
    expect(await page.getByTestId('session-executor').innerText()).toBe('Local PC');
    expect(await page.getByTestId('session-state').getAttribute('data-state')).toBe('running');
    expect(await page.title()).toBe(`${title} · Kandev`);

    await page.getByTestId('nav-tasks').click();
    await row(task.id).locator(`[data-testid="session-row"][data-session-id="${first}"][data-state="running"]`).waitFor();
    expect(await row(task.id).getByTestId('start-session').getAttribute('data-resumes')).toBe(first);
    await row(task.id).getByTestId('start-session').click();
    await page.locator(`[data-testid="session-view"][data-session-id="${first}"]`).waitFor();
    expect((await taskByTitle(title))!.sessions.map((s) => s.id)).toEqual([first]);
  });

  it('New session and Stop are explicit, and the list shows each session with its state', async () => {
    const task = (await taskByTitle(title))!;
    const first = task.sessions[0]!.id;
    await page.getByTestId('session-new').click();
    await page.locator(`[data-testid="session-view"]:not([data-session-id="${first}"])`).waitFor();
    const second = (await page.getByTestId('session-view').getAttribute('data-session-id'))!;
    expect((await taskByTitle(title))!.sessions.map((s) => [s.id, s.status])).toEqual([
      [first, 'running'],
      [second, 'running'],
    ]);

    await page.getByTestId('session-stop').click();
    await page.locator('[data-testid="session-state"][data-state="stopped"]').waitFor();
    await page.getByTestId('session-ended').waitFor();
    expect((await stack.api<Session>(`/api/sessions/${second}`)).status).toBe('stopped');

    await page.getByTestId('nav-tasks').click();
    await row(task.id).locator(`[data-testid="session-row"][data-session-id="${second}"][data-state="stopped"]`).waitFor();
    await row(task.id).locator(`[data-testid="session-row"][data-session-id="${first}"] [data-testid="task-session-stop"]`).click();
    await row(task.id).locator(`[data-testid="session-row"][data-session-id="${first}"][data-state="stopped"]`).waitFor();
    expect((await stack.api<Session>(`/api/sessions/${first}`)).status).toBe('stopped');
    // Nothing runs now: the primary action starts a fresh session instead of resuming.
    expect(await row(task.id).getByTestId('start-session').getAttribute('data-resumes')).toBeNull();
  });

  it('renames a task from its menu; an empty title is refused with copy', async () => {
    const task = (await taskByTitle(title))!;
    await row(task.id).getByTestId('task-menu').click();
    await page.getByTestId('task-rename').click();
    const input = page.getByTestId('rename-task-input');
    expect(await input.inputValue()).toBe(title);
    await input.fill('   ');
    await page.getByTestId('rename-task-submit').click();
    await expect
      .poll(() =>
        page
          .getByTestId('rename-task-dialog')
          .getByTestId('task-error')
          .innerText()
          .catch(() => ''),
      )
      .toBe('Give the task a title.');
    await input.fill('Billing: round totals to cents');
    await page.getByTestId('rename-task-submit').click();
    await row(task.id).getByText('Billing: round totals to cents').waitFor();
    expect((await stack.api<Task>(`/api/tasks/${task.id}`)).title).toBe('Billing: round totals to cents');
  });

  it('deletes a task with a running session after a confirmation that says the session stops first', async () => {
    const task = (await tasks())[0]!;
    await row(task.id).getByTestId('start-session').click();
    await page.getByTestId('session-view').waitFor();
    const running = (await page.getByTestId('session-view').getAttribute('data-session-id'))!;
    await page.getByTestId('nav-tasks').click();
    await row(task.id).locator(`[data-testid="session-row"][data-session-id="${running}"][data-state="running"]`).waitFor();

    await row(task.id).getByTestId('task-menu').click();
    await page.getByTestId('task-delete').click();
    const dialog = page.getByTestId('delete-task-dialog');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Its running session is stopped first.');
    // Cancel keeps everything.
    await dialog.getByText('Cancel').click();
    await dialog.waitFor({ state: 'detached' });
    expect((await stack.api<Session>(`/api/sessions/${running}`)).status).toBe('running');

    await row(task.id).getByTestId('task-menu').click();
    await page.getByTestId('task-delete').click();
    await page.getByTestId('delete-task-confirm').click();
    await row(task.id).waitFor({ state: 'detached' });
    await page.getByTestId('tasks-empty').waitFor();
    expect(await tasks()).toEqual([]);
    await expect(stack.api(`/api/sessions/${running}`)).rejects.toThrow(/404/);
  });
});
