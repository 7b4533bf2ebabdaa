import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openTaskEditor } from '../support/fakeEditor.js';
import { openFile, sessionModelText, startEditorStack } from '../support/page.js';
import type { RunningStack } from '../support/stack.js';
import { agentctlWithWatchLimit, canLimitWatches } from '../support/watchLimit.js';

/**
 * The inotify watch limit used up for real (agentctl in a user namespace of its own, see
 * test/support/watchLimit.ts), in Chromium: the status details say the task host ran out of file
 * watches and give the fix, and the open file and the expanded folder still follow the disk, by
 * polling.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)') && canLimitWatches();
const WATCH_LIMIT = 8;
const FOLDERS = 40;

describe.runIf(run)('live workspace in Chromium when the inotify watch limit is used up', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let workspace: string;
  let sessionId: string;

  beforeAll(async () => {
    stack = await startEditorStack(agentctlWithWatchLimit(WATCH_LIMIT));
    workspace = mkdtempSync(join(tmpdir(), 'kandev-watch-limit-'));
    for (let i = 0; i < FOLDERS; i++) mkdirSync(join(workspace, `pkg${i}`));
    writeFileSync(join(workspace, 'config.json'), '{ "round": 0 }\n');
    ({ sessionId, browser, page } = await openTaskEditor(stack, { title: 'Watch limit', workspace }));
    await openFile(page, 'config.json');
    // Its state does not matter here (the details show how the workspace is watched in any state).
    await page.locator('[data-testid="lsp-status"][data-language="json"]').waitFor();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it('the status details say the task host ran out of file watches, and give the fix', async () => {
    await page.locator('[data-testid="lsp-status"][data-language="json"] [data-testid="lsp-status-trigger"]').click();
    const notice = page.locator('[data-testid="lsp-watch-mode"] [data-testid="watch-polling"]');
    await notice.waitFor();
    expect(await notice.getAttribute('data-reason')).toBe('watch_limit');
    expect((await notice.innerText()).split('\n').filter(Boolean)).toEqual([
      'Live updates are polling',
      'The task host ran out of file watches, so only open files and expanded folders are checked for changes.',
      'Fix: raise fs.inotify.max_user_watches on the task host (for example: sudo sysctl fs.inotify.max_user_watches=524288), then start a new session.',
    ]);
    await page.keyboard.press('Escape');
    // The Changes panel says the same where the changes are listed.
    expect(await page.locator('[data-testid="changes-panel"] [data-testid="watch-polling"][data-reason="watch_limit"]').count()).toBe(1);
  });

  it('polling: the open file takes the new disk text and the expanded folder lists a new file, without Refresh', async () => {
    await page.locator('[data-testid="tree-node"][data-path="pkg1"]').click();
    // A poll's first look is its baseline, and when it happens is agentctl's business: the agent
    // keeps writing until the page has followed; the last write is what the tab must end with.
    let round = 0;
    const agent = setInterval(() => {
      round += 1;
      writeFileSync(join(workspace, 'config.json'), `{ "round": ${round} }\n`);
      writeFileSync(join(workspace, `pkg1/new-${round}.json`), '{}\n');
    }, 300);
    try {
      await expect.poll(() => sessionModelText(page, sessionId, 'config.json'), { timeout: 30_000 }).toMatch(/"round": [1-9]/);
      await page.locator('[data-testid="tree-node"][data-path^="pkg1/new-"]').first().waitFor({ timeout: 30_000 });
    } finally {
      clearInterval(agent);
    }
    const last = `{ "round": ${round} }\n`;
    await expect.poll(() => sessionModelText(page, sessionId, 'config.json'), { timeout: 30_000 }).toBe(last);
    expect(await page.locator('[data-testid="editor-tab"][data-path="config.json"]').getAttribute('data-dirty')).toBe('false');
  });
});
