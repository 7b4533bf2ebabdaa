import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openFile, putSettings, startEditorStack, waitForLspState } from '../support/page.js';
import { openTaskEditor } from '../support/fakeEditor.js';
import type { RunningStack } from '../support/stack.js';
import { writeFiles } from '../support/files.js';

/**
 * What real servers say reaches the person: gopls's window/showMessage about invalid settings as
 * an error toast, and pyright's window/logMessage lines (its configuration could not be parsed) in
 * the Output panel, still there after a reload, from the lease that outlived the page.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

describe.runIf(run)('what real servers say', () => {
  let stack: RunningStack;
  const browsers: LaunchedBrowser[] = [];

  beforeAll(async () => {
    stack = await startEditorStack();
    // gopls answers an unknown option and a bad enum value with window/showMessage "Invalid settings".
    await putSettings(stack, { lsp_server_configs: { go: { gopls: { hoverKind: 'Nope', noSuchOption: true } } } });
  });

  afterAll(async () => {
    for (const b of browsers) await b.close();
    await stack?.stop();
  });

  async function open(title: string, files: Record<string, string>): Promise<Page> {
    const workspace = writeFiles(mkdtempSync(join(tmpdir(), 'kandev-server-says-')), files);
    const editor = await openTaskEditor(stack, { title, workspace });
    browsers.push(editor.browser);
    return editor.page;
  }

  it('gopls: invalid settings arrive as window/showMessage, shown as an error toast that stays', async () => {
    const page = await open('gopls says', {
      'go.mod': ['module example.com/says', '', 'go 1.19', ''].join('\n'),
      'main.go': ['package main', '', 'func main() {}', ''].join('\n'),
    });
    await openFile(page, 'main.go');
    await waitForLspState(page, 'go', 'ready');
    const toast = page.getByTestId('server-toast').and(page.locator('[data-language="go"]'));
    await toast.first().waitFor({ timeout: 60_000 });
    expect(await toast.first().getAttribute('data-severity')).toBe('error');
    expect(await toast.first().getAttribute('data-kind')).toBe('message');
    const text = await toast.first().getByTestId('server-toast-text').innerText();
    expect(text).toContain('Invalid settings');
    expect(text).toContain('noSuchOption');
    expect(await toast.first().innerText()).toContain('Go language server');
  });

  it('pyright: its logMessage lines (the configuration could not be parsed) are in the Output panel, and a reload still shows them from the lease', async () => {
    const page = await open('pyright says', {
      'pyrightconfig.json': '{ "typeCheckingMode": "strict", this is not json',
      'app.py': ['x = 1', ''].join('\n'),
    });
    await openFile(page, 'app.py');
    await waitForLspState(page, 'python', 'ready');
    await page.getByTestId('output-toggle').click();
    expect(await page.getByTestId('output-panel').getAttribute('data-language')).toBe('python');
    const lines = page.getByTestId('output-line');
    const parseError = lines.filter({ hasText: 'could not be parsed' });
    await parseError.waitFor({ timeout: 60_000 });
    expect(await parseError.getAttribute('data-source')).toBe('log');
    expect(await parseError.getAttribute('data-level')).toBe('error');
    const starting = lines.filter({ hasText: /Pyright language server .* starting/ });
    const seqBefore = await starting.getAttribute('data-seq');
    expect(seqBefore).not.toBeNull();

    await page.reload();
    await openFile(page, 'app.py');
    await waitForLspState(page, 'python', 'ready');
    await page.getByTestId('output-toggle').click();
    // Said once, when the process started: after the reload it can only come from the lease.
    await starting.waitFor({ timeout: 30_000 });
    expect(await starting.getAttribute('data-seq')).toBe(seqBefore);
    expect(await lines.filter({ hasText: 'could not be parsed' }).count()).toBe(1);
  });
});
