import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  editorText,
  openFile,
  openSession,
  putSettings,
  received,
  runEditorAction,
  serverDocument,
  setCaret,
  startEditorStack,
  startFakeSession,
  waitForLspState,
  type FakeSession,
} from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

/**
 * Saving and the server's view of the document (S24, S25), against the fake server installed as
 * `kotlin-lsp`. The fake's log proves the order of didChange and didSave, the URI, the text the
 * server holds (its didOpen plus every change, replayed), and that a refused write sends nothing.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const MAIN = 'src/Main.kt';
const source = ['package demo', '', 'fun main() {', '    println("hi")', '}', ''].join('\n');

function script(save: { includeText: boolean }): FakeScript {
  return {
    capabilities: { textDocumentSync: { openClose: true, change: 2, save }, hoverProvider: true },
    rules: { 'textDocument/hover': [{ respond: { contents: { kind: 'plaintext', value: 'fake hover' } } }] },
  };
}

describe.runIf(run)('saving a document the fake server (kotlin-lsp) tracks', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let withText: FakeSession;
  let withoutText: FakeSession;
  let rejected: FakeSession;
  let inFlight: FakeSession;

  const tab = (state: 'true' | 'false') => page.locator(`[data-testid="editor-tab"][data-path="${MAIN}"][data-dirty="${state}"]`);
  const disk = (session: FakeSession) => readFileSync(join(session.workspace, MAIN), 'utf8');

  async function open(session: FakeSession): Promise<void> {
    await openSession(page, stack.url, session.sessionId);
    await openFile(page, MAIN);
    await waitForLspState(page, 'kotlin', 'ready');
  }

  /** A hover the server must log: everything the editor sent before it is in the log by then. */
  async function barrier(session: FakeSession): Promise<void> {
    const before = received(session, 'textDocument/hover').length;
    await runEditorAction(page, 'editor.action.showHover');
    await expect.poll(() => received(session, 'textDocument/hover').length, { timeout: 15_000 }).toBeGreaterThan(before);
    await page.keyboard.press('Escape');
  }

  /** Log positions of the server's didChange and didSave notifications for `uri`. */
  function syncOrder(session: FakeSession, uri: string) {
    const entries = session.log().map((l, index) => ({ index, message: l.message }));
    const of = (method: string) => entries.filter((e) => e.message.method === method && e.message.params?.textDocument?.uri === uri);
    return { changes: of('textDocument/didChange'), saves: of('textDocument/didSave') };
  }

  /** Edits the end of line 4 and saves at once with Ctrl+S, within the change debounce. */
  async function editAndSave(text: string): Promise<void> {
    await setCaret(page, 4, 19);
    await page.keyboard.type(text);
    await page.keyboard.press('Control+S');
  }

  beforeAll(async () => {
    stack = await startEditorStack();
    await putSettings(stack, { lsp_auto_start_languages: ['kotlin'] });
    withText = await startFakeSession(stack, { binary: 'kotlin-lsp', script: script({ includeText: true }), files: { [MAIN]: source } });
    withoutText = await startFakeSession(stack, { binary: 'kotlin-lsp', script: script({ includeText: false }), files: { [MAIN]: source } });
    rejected = await startFakeSession(stack, { binary: 'kotlin-lsp', script: script({ includeText: true }), files: { [MAIN]: source } });
    inFlight = await startFakeSession(stack, { binary: 'kotlin-lsp', script: script({ includeText: true }), files: { [MAIN]: source } });
    browser = await launchChromium();
    page = await (await newContext(browser.browser)).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('S24 the final didChange reaches the server before didSave for the canonical file URI, with the persisted text when includeText is asked', async () => {
    await open(withText);
    const uri = withText.fileUri(MAIN);
    expect(uri).toBe(`file://${join(withText.workspace, MAIN)}`);
    await editAndSave(' // edited');
    await tab('false').waitFor();
    const saved = await editorText(page);
    expect(disk(withText)).toBe(saved);
    await expect.poll(() => syncOrder(withText, uri).saves.length, { timeout: 15_000 }).toBe(1);

    const { changes, saves } = syncOrder(withText, uri);
    const save = saves[0]!;
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.at(-1)!.index).toBeLessThan(save.index);
    // What the server holds when the save arrives is exactly the persisted snapshot ...
    expect(serverDocument(withText, uri, save.index)?.text).toBe(saved);
    // ... and the save notification carries it, for that URI only.
    expect(save.message.params).toEqual({ textDocument: { uri }, text: saved });
    expect(received(withText, 'textDocument/didSave').map((m) => m.params.textDocument.uri)).toEqual([uri]);
  });

  it('S24 a server that does not ask for includeText gets didSave without text, still after the final didChange', async () => {
    await open(withoutText);
    const uri = withoutText.fileUri(MAIN);
    await editAndSave(' // edited too');
    await tab('false').waitFor();
    const saved = await editorText(page);
    expect(disk(withoutText)).toBe(saved);
    await expect.poll(() => syncOrder(withoutText, uri).saves.length, { timeout: 15_000 }).toBe(1);
    const { changes, saves } = syncOrder(withoutText, uri);
    expect(changes.at(-1)!.index).toBeLessThan(saves[0]!.index);
    expect(serverDocument(withoutText, uri, saves[0]!.index)?.text).toBe(saved);
    expect(saves[0]!.message.params).toEqual({ textDocument: { uri } });
  });

  it('S24 a rejected write (409 conflict, then a failed PUT) sends no didSave', async () => {
    await open(rejected);
    const uri = rejected.fileUri(MAIN);

    // Someone else changes the file on disk while the buffer holds unsaved text: the save is
    // refused with 409 and a conflict banner. The text is typed first: a clean buffer takes the
    // new disk text by itself (the live workspace), so a write before the typing raced the watcher.
    await setCaret(page, 4, 19);
    await page.keyboard.type(' // mine');
    writeFileSync(join(rejected.workspace, MAIN), `${source}// changed elsewhere\n`);
    await page.keyboard.press('Control+S');
    await page.locator(`[data-testid="save-conflict"][data-path="${MAIN}"]`).waitFor();
    await tab('true').waitFor();
    await barrier(rejected);
    expect(syncOrder(rejected, uri).saves).toEqual([]);
    // The server still follows the buffer, which was not persisted.
    expect(serverDocument(rejected, uri)?.text).toBe(await editorText(page));

    // Take the disk version, then a write that fails outright (the PUT answers 500).
    await page.locator('[data-testid="save-conflict-reload"]').click();
    await tab('false').waitFor();
    await page.route('**/api/sessions/*/file?*', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"io","message":"disk full"}}' })
        : route.fallback(),
    );
    try {
      await editAndSave(' // fails');
      await page.locator('[data-testid="save-error"]').waitFor();
      await barrier(rejected);
      expect(syncOrder(rejected, uri).saves).toEqual([]);
      expect(disk(rejected)).toBe(`${source}// changed elsewhere\n`);
    } finally {
      await page.unroute('**/api/sessions/*/file?*');
    }
  });

  it('S25 typing during an in-flight save keeps the newer buffer dirty and current on the server; didSave omits the stale text', async () => {
    await open(inFlight);
    const uri = inFlight.fileUri(MAIN);
    let intercepted!: () => void;
    const held = new Promise<void>((resolve) => (intercepted = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/sessions/*/file?*', async (route: Route) => {
      if (route.request().method() !== 'PUT') return route.fallback();
      intercepted();
      await released;
      return route.fallback();
    });
    try {
      await editAndSave(' // older');
      await held;
      const older = await editorText(page);
      await page.keyboard.type(' // newer');
      const newer = await editorText(page);
      expect(newer).not.toBe(older);
      release();
      await expect.poll(() => syncOrder(inFlight, uri).saves.length, { timeout: 15_000 }).toBe(1);
      expect(disk(inFlight)).toBe(older);
      await tab('true').waitFor();

      const { changes, saves } = syncOrder(inFlight, uri);
      expect(saves[0]!.message.params).toEqual({ textDocument: { uri } });
      // The newer text went out before the save notification: the server never rewinds to `older`.
      expect(changes.at(-1)!.index).toBeLessThan(saves[0]!.index);
      expect(serverDocument(inFlight, uri, saves[0]!.index)?.text).toBe(newer);
      await barrier(inFlight);
      expect(serverDocument(inFlight, uri)?.text).toBe(newer);
      expect(await editorText(page)).toBe(newer);
    } finally {
      release();
      await page.unroute('**/api/sessions/*/file?*');
    }
  });

  it('leaving a page whose editor holds unsaved text asks first; a page with nothing unsaved leaves without asking', async () => {
    // The previous test left `inFlight`'s file dirty (the newer text was never saved).
    await tab('true').waitFor();
    const asked: string[] = [];
    const record = (dialog: { type(): string }) => asked.push(dialog.type());
    page.on('dialog', record);
    try {
      await page.reload();
      expect(asked).toEqual(['beforeunload']);
      await openFile(page, MAIN);
      await waitForLspState(page, 'kotlin', 'ready');
      await tab('false').waitFor();
      await page.reload();
      expect(asked).toEqual(['beforeunload']);
    } finally {
      page.off('dialog', record);
    }
  });
});
