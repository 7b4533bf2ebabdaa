import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openTaskEditor } from '../support/fakeEditor.js';
import { markers, openFile, startEditorStack, waitForLspState } from '../support/page.js';
import { copyDemoWorkspace, type RunningStack } from '../support/stack.js';

/**
 * The client capability workspace.didChangeWatchedFiles, proven in Chromium against gopls: the web
 * client advertises it, gopls registers its watchers, the task host sends the notification, and a
 * rename on disk in util/util.go (never opened) shows as a squiggle in the open main.go.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

describe.runIf(run)('live workspace in Chromium: gopls hears a disk rename in a file nobody opened', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let sessionId: string;
  let workspace: string;

  beforeAll(async () => {
    stack = await startEditorStack();
    workspace = copyDemoWorkspace();
    ({ browser, page, sessionId } = await openTaskEditor(stack, { title: 'Live workspace', workspace, env: { GOFLAGS: '-mod=mod', GOPROXY: 'off' } }));
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('util.Double renamed to Twice on disk: main.go is marked: util.Double is gone', async () => {
    await openFile(page, 'main.go');
    await waitForLspState(page, 'go', 'ready', 120_000);
    const messages = async () => (await markers(page, sessionId, 'main.go')).map((m) => m.message).join('\n');
    // The demo's deliberate type error shows first: gopls has analysed main.go.
    await expect.poll(messages, { timeout: 90_000 }).toMatch(/cannot use util\.Double/);
    const broken = /undefined: util\.Double|Double not declared by package util/;
    expect(await messages()).not.toMatch(broken);
    const util = join(workspace, 'util/util.go');
    writeFileSync(util, readFileSync(util, 'utf8').replace('func Double', 'func Twice'));
    // gopls 0.5 words it "Double not declared by package util"; newer ones "undefined: util.Double".
    await expect.poll(messages, { timeout: 30_000 }).toMatch(broken);
  }, 240_000);
});
