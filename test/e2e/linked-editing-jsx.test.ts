import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { writeFiles } from '../support/files.js';
import { editorText, openFile, openSession, putSettings, recordSentMethods, setCaret, startEditorStack, waitForLspState } from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

/**
 * Linked editing of JSX tag pairs against the real typescript-language-server (TypeScript 5.1 and
 * later answer textDocument/linkedEditingRange for .tsx and .jsx): renaming an opening tag in
 * Chromium renames its closing tag with it.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const FILES: Record<string, string> = {
  'src/card.tsx': ['export function Card() {', '  return (', '    <div className="card">', '      <span>hello</span>', '    </div>', '  );', '}', ''].join(
    '\n',
  ),
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'es2022', jsx: 'preserve' } }),
};

describe.runIf(run)('typescript-language-server: JSX tag pairs renamed together (linked editing)', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let workspace: string;
  let sent: string[];

  beforeAll(async () => {
    workspace = writeFiles(mkdtempSync(join(tmpdir(), 'kandev-e2e-jsx-')), FILES);
    stack = await startEditorStack();
    await putSettings(stack, { lsp_auto_start_languages: ['typescript'] });
    const created = await stack.createTask({ title: 'JSX linked editing', workspace });
    const sessionId = (await stack.startSession(created.id)).id;
    browser = await launchChromium();
    page = await (await newContext(browser.browser)).newPage();
    // Before the page opens its sockets: the methods it sends to the server.
    sent = recordSentMethods(page);
    await openSession(page, stack.url, sessionId);
    await openFile(page, 'src/card.tsx');
    await waitForLspState(page, 'typescript', 'ready');
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it('typing in the opening <div> renames the closing </div> too', async () => {
    // The caret right after `<div`, as a person about to rename the tag.
    await setCaret(page, 3, 9);
    // Both names are decorated as linked once the server answered for the caret: typing then edits both.
    const editor = page.locator('[data-testid="editor"][data-path="src/card.tsx"]');
    await editor.locator('.linked-editing-decoration').nth(1).waitFor({ timeout: 60_000 });
    expect(sent).toContain('textDocument/linkedEditingRange');
    await page.keyboard.type('x');
    await expect
      .poll(async () => (await editorText(page)).split('\n').slice(2, 5))
      .toEqual(['    <divx className="card">', '      <span>hello</span>', '    </divx>']);
  });
});
