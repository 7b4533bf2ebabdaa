import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { caretPosition, openFile, recordSentMethods, setCaret, startEditorStack, waitForLspState } from '../support/page.js';
import { openTaskEditor } from '../support/fakeEditor.js';
import type { RunningStack } from '../support/stack.js';
import { writeFiles } from '../support/files.js';
import { pickFromContextMenu, runFromCommandPalette } from '../support/hierarchy.js';

/** Go to Type Definition and Go to Declaration against the real pyright, across files. */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const FILES: Record<string, string> = {
  'pkg/models.py': ['class Box:', '    """A box."""', '', '    def __init__(self, size: int) -> None:', '        self.size = size', ''].join('\n'),
  'pkg/main.py': ['from models import Box', '', '', 'def make() -> Box:', '    return Box(3)', '', '', 'item = make()', 'print(item.size)', ''].join('\n'),
};

describe.runIf(run)('type definition and declaration with the real pyright', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let sent: string[];

  const activeTab = () => page.locator('[data-testid="editor-tab"][data-active="true"]').getAttribute('data-path');

  beforeAll(async () => {
    stack = await startEditorStack();
    const workspace = writeFiles(mkdtempSync(join(tmpdir(), 'kandev-nav-py-')), FILES);
    ({ browser, page } = await openTaskEditor(stack, { title: 'Navigation Python', workspace }));
    sent = recordSentMethods(page);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('pyright: Go to Type Definition (context menu) on a variable opens the class of its type in its file', async () => {
    await openFile(page, 'pkg/main.py');
    await waitForLspState(page, 'python', 'ready');
    await setCaret(page, 9, 9); // print(it|em.size)
    await pickFromContextMenu(page, 'Go to Type Definition');
    await expect.poll(activeTab, { timeout: 60_000 }).toBe('pkg/models.py');
    expect(await caretPosition(page)).toEqual({ lineNumber: 1, column: 7 });
    expect(sent).toContain('textDocument/typeDefinition');
  });

  it('pyright: Go to Declaration (command palette) on an imported name opens where it is declared', async () => {
    await openFile(page, 'pkg/main.py');
    await setCaret(page, 5, 13); // return Bo|x(3)
    await runFromCommandPalette(page, 'Go to Declaration', 'Go to Declaration');
    await expect.poll(activeTab, { timeout: 60_000 }).toBe('pkg/models.py');
    expect(await caretPosition(page)).toEqual({ lineNumber: 1, column: 7 });
    expect(sent).toContain('textDocument/declaration');
  });
});
