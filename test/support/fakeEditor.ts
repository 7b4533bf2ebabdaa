import type { Page } from 'playwright-core';
import { launchChromium, newContext, type LaunchedBrowser } from './browser.js';
import { openFile, openSession, putSettings, startEditorStack, startFakeSession, waitForLspState, type FakeSession, type FakeSessionOptions } from './page.js';
import type { RunningStack } from './stack.js';

export interface FakeEditor {
  stack: RunningStack;
  session: FakeSession;
  browser: LaunchedBrowser;
  page: Page;
}

export interface FakeEditorOptions {
  /** Settings put before the session starts (auto start of the fake's language is added). */
  settings?: Record<string, unknown>;
  /** The session, or a function of the stack for options that name files in its home. */
  session: FakeSessionOptions | ((stack: RunningStack) => FakeSessionOptions);
  /** The file opened in the editor; the suite starts once its Kotlin server is ready. */
  file: string;
  /** Environment of the stack (e.g. KANDEV_LSP_REQUEST_TIMEOUT_MS). */
  env?: Record<string, string>;
  /** Runs on the new page before it opens the session: init scripts, socket witnesses, the page's clock, its size. */
  beforeOpen?: (page: Page) => Promise<void>;
}

/**
 * The usual start of a fake-server editor suite: a stack, a Kotlin session on the fake server, a
 * Chromium page on the session with `file` open and the server ready.
 */
export async function openFakeEditor(options: FakeEditorOptions): Promise<FakeEditor> {
  const stack = await startEditorStack(options.env);
  await putSettings(stack, { lsp_auto_start_languages: ['kotlin'], ...options.settings });
  const session = await startFakeSession(stack, typeof options.session === 'function' ? options.session(stack) : options.session);
  const browser = await launchChromium();
  const page = await (await newContext(browser.browser)).newPage();
  await options.beforeOpen?.(page);
  await openSession(page, stack.url, session.sessionId);
  await openFile(page, options.file);
  await waitForLspState(page, 'kotlin', 'ready');
  return { stack, session, browser, page };
}

export interface TaskEditor {
  taskId: string;
  sessionId: string;
  browser: LaunchedBrowser;
  page: Page;
}

/**
 * The usual start of a real-server editor suite on a running stack: a task on `workspace`, its
 * session started, and a Chromium page showing it (no file opened yet).
 */
export async function openTaskEditor(stack: RunningStack, task: { title: string; workspace: string; env?: Record<string, string> }): Promise<TaskEditor> {
  const created = await stack.createTask(task);
  const sessionId = (await stack.startSession(created.id)).id;
  const browser = await launchChromium();
  const page = await (await newContext(browser.browser)).newPage();
  await openSession(page, stack.url, sessionId);
  return { taskId: created.id, sessionId, browser, page };
}
