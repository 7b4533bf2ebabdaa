import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import type { LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { caretPosition, runEditorAction, setCaret, type FakeSession } from '../support/page.js';
import { openFakeEditor } from '../support/fakeEditor.js';
import type { RunningStack } from '../support/stack.js';
import { emulateScheme, expectTheme, screenshot, seriousAxeViolations, settled } from '../support/app.js';

/**
 * What a server says that real servers cannot be made to say on demand, from the scriptable fake
 * server (installed as kotlin-lsp): a `window/showMessageRequest` with actions whose choice goes
 * back, `window/showDocument` of a workspace file, of an http(s) page (only after the person
 * agrees) and of URIs that are never opened; plus the toasts and Output panel at every size.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const MAIN = 'src/Main.kt';
const OTHER = 'src/Other.kt';
const files = {
  [MAIN]: ['fun main() {', '    helper()', '}', ''].join('\n'),
  [OTHER]: ['fun helper() {}', '', 'fun target() {}', ''].join('\n'),
};
const range = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });
const MISSING = 'Fake: module example.com/missing is missing';
const EXTERNAL = 'https://example.com/fake-docs';

async function streamText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

function script(fileUri: (path: string) => string): FakeScript {
  return {
    capabilities: { textDocumentSync: { openClose: true, change: 2, save: true }, hoverProvider: true },
    rules: {
      // The first open of this process: log, stderr, the same error twice, then a question (fake-1).
      'textDocument/didOpen': [
        {
          sequence: 'open',
          steps: [
            [
              { notify: 'window/logMessage', params: { type: 3, message: 'fake: indexing started' } },
              { stderr: 'fake stderr: warming up' },
              { notify: 'window/showMessage', params: { type: 1, message: MISSING } },
              { notify: 'window/showMessage', params: { type: 1, message: MISSING } },
              {
                request: 'window/showMessageRequest',
                params: { type: 2, message: 'Fake: run tidy now?', actions: [{ title: 'Run tidy' }, { title: 'Not now' }] },
              },
            ],
            [],
          ],
        },
      ],
      // fake-2: a workspace file at a range.
      'textDocument/hover': [
        {
          sequence: 'hover',
          steps: [
            [{ request: 'window/showDocument', params: { uri: fileUri(OTHER), takeFocus: true, selection: range(2, 4, 10) } }, { respond: null }],
            [{ respond: null }],
          ],
        },
      ],
      // Each save: javascript:, a file outside the workspace, then an external page (fake-3..5, fake-6..8).
      'textDocument/didSave': [
        { request: 'window/showDocument', params: { uri: 'javascript:alert(1)', external: true } },
        { request: 'window/showDocument', params: { uri: 'file:///etc/passwd', takeFocus: true } },
        { request: 'window/showDocument', params: { uri: EXTERNAL, external: true } },
      ],
    },
  };
}

describe.runIf(run)('what servers say, from the scripted fake server (kotlin-lsp)', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let session: FakeSession;

  /** The browser's answer to the fake's n-th server request, once it reached the server. */
  const answerTo = (n: number) => session.log().find((l) => l.message.id === `fake-${n}` && l.message.method === undefined)?.message;
  const toasts = () => page.getByTestId('server-toast');

  beforeAll(async () => {
    ({ stack, session, browser, page } = await openFakeEditor({ session: { binary: 'kotlin-lsp', script, files }, file: MAIN }));
    await page.context().route('https://example.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>docs</title>docs' }));
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('showMessage: an error toast with its severity; the same error twice is one toast with a count of 2', async () => {
    const error = toasts().and(page.locator('[data-kind="message"]'));
    await error.waitFor({ timeout: 30_000 });
    await expect.poll(() => error.getAttribute('data-count')).toBe('2');
    expect(await error.count()).toBe(1);
    expect(await error.getAttribute('data-severity')).toBe('error');
    expect(await error.getAttribute('role')).toBe('alert');
    expect(await error.getByTestId('server-toast-text').innerText()).toBe(MISSING);
    expect(await error.innerText()).toContain('Error · Kotlin language server');
  });

  it('the Output panel shows the log and stderr lines of the lease, with copy and download', async () => {
    await page.getByTestId('output-toggle').click();
    const lines = page.getByTestId('output-line');
    await lines.filter({ hasText: 'fake stderr: warming up' }).waitFor({ timeout: 30_000 });
    expect(await lines.filter({ hasText: 'fake: indexing started' }).getAttribute('data-source')).toBe('log');
    expect(await lines.filter({ hasText: 'fake stderr: warming up' }).getAttribute('data-source')).toBe('stderr');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('output-download').click()]);
    expect(download.suggestedFilename()).toBe('kotlin-language-server.log');
    // The file as the browser saved it (read as a stream: the run's Chromium is a remote one, whose paths are not ours).
    const text = await streamText(await download.createReadStream());
    expect(text).toMatch(/\[info\] fake: indexing started\n/);
    expect(text).toMatch(/\[stderr\] fake stderr: warming up\n/);

    // Copy puts the same lines on the clipboard (read back through the page, as a paste would).
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
    const copy = page.getByTestId('output-copy');
    await copy.click();
    await expect.poll(() => copy.innerText()).toBe('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/\[info\] fake: indexing started\n/);
    expect(copied).toMatch(/\[stderr\] fake stderr: warming up(\n|$)/);
    expect(`${copied.replace(/\n$/, '')}\n`).toBe(text);
  });

  for (const [viewport, size] of [
    ['desktop', { width: 1400, height: 900 }],
    ['tablet', { width: 1024, height: 768 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`${viewport} ${scheme}: toasts (and the Output panel where the editor is) are axe clean`, async () => {
        await page.setViewportSize(size);
        await emulateScheme(page, scheme);
        await expectTheme(page, scheme);
        await toasts().first().waitFor();
        await settled(page);
        // Monaco's own hidden widgets are not ours to judge here.
        expect(await seriousAxeViolations(page, ['.monaco-editor'])).toEqual([]);
        await screenshot(page, `server-window-${viewport}-${scheme}`);
      });
    }
  }

  it('showMessageRequest: the actions are buttons; the one chosen with the keyboard goes back to the server as the item it offered', async () => {
    await page.setViewportSize({ width: 1400, height: 900 });
    const question = toasts().and(page.locator('[data-kind="request"]'));
    await question.waitFor();
    expect(await question.getByTestId('server-toast-action').allInnerTexts()).toEqual(['Run tidy', 'Not now']);
    expect(answerTo(1)).toBeUndefined();
    await question.getByRole('button', { name: 'Run tidy' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => answerTo(1), { timeout: 15_000 }).toMatchObject({ result: { title: 'Run tidy' } });
    expect(await question.count()).toBe(0);
  });

  it('showDocument of a workspace file opens it as a tab at its range and answers success', async () => {
    await setCaret(page, 2, 6);
    await runEditorAction(page, 'editor.action.showHover');
    await page.locator(`[data-testid="editor"][data-path="${OTHER}"]`).waitFor({ timeout: 30_000 });
    await expect.poll(() => answerTo(2), { timeout: 15_000 }).toMatchObject({ result: { success: true } });
    await expect.poll(() => caretPosition(page)).toEqual({ lineNumber: 3, column: 5 });
  });

  it('showDocument never opens javascript: or a file outside the workspace; an external page opens only after the person agrees', async () => {
    await page.locator(`[data-testid="editor-tab"][data-path="${MAIN}"] .tab-label`).click();
    await setCaret(page, 3, 2);
    await page.keyboard.type(' ');
    await page.keyboard.press('Control+S');
    await expect.poll(() => answerTo(3), { timeout: 30_000 }).toMatchObject({ result: { success: false } });
    await expect.poll(() => answerTo(4)).toMatchObject({ result: { success: false } });
    // The external page waits for the person: declined, nothing opens and the server hears so.
    const ask = toasts().and(page.locator('[data-kind="external"]'));
    await ask.waitFor();
    expect(await ask.getByTestId('server-toast-uri').innerText()).toBe(EXTERNAL);
    expect(answerTo(5)).toBeUndefined();
    const pagesBefore = page.context().pages().length;
    await ask.getByTestId('server-toast-dismiss').click();
    await expect.poll(() => answerTo(5), { timeout: 15_000 }).toMatchObject({ result: { success: false } });
    expect(page.context().pages()).toHaveLength(pagesBefore);

    // Asked again (the next save) and agreed: a new browser tab shows the page.
    await setCaret(page, 3, 2);
    await page.keyboard.type(' ');
    await page.keyboard.press('Control+S');
    await ask.waitFor({ timeout: 30_000 });
    const [opened] = await Promise.all([page.context().waitForEvent('page'), ask.getByTestId('server-toast-action').click()]);
    await expect.poll(() => answerTo(8), { timeout: 15_000 }).toMatchObject({ result: { success: true } });
    expect(opened.url()).toBe(EXTERNAL);
    await opened.close();
  });
});
