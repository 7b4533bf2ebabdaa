import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  openFile,
  openSession,
  putSettings,
  setCaret,
  startEditorStack,
  startFakeSession,
  suggestRows,
  waitForLspState,
  type FakeSession,
} from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

/**
 * Quick suggestions paced by what word lists cost the server (docs/performance.md), in Chromium
 * against the fake installed as `kotlin-lsp`, whose first completion answer takes 800 ms (as
 * tsserver's list of a workspace exporting 50,000 names does) and every later one is immediate.
 * While nothing is known of the server's word lists, the first one waits for a pause in typing (the
 * first list of a session is the dearest); once a word list was slow, typing on sends no word list
 * until a pause either, and the `.` typed at the end asks at once. Without the pacing, the first
 * letter and each new word typed after the slow answer ask at once (Monaco's own delay is 10 ms),
 * so a request follows a keystroke closely.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const MAIN = 'src/Main.kt';
const source = ['package demo', '', 'fun main() {', '    ', '}', ''].join('\n');
const TYPED = 'val total = count + offset * scale - base + extra';
const SLOW_FIRST_LIST_MS = 800;
/** Below the pause the pacing waits for (300 ms), above a keystroke gap and Monaco's own 10 ms. */
const MIN_GAP_AFTER_KEY_MS = 200;

const script: FakeScript = {
  capabilities: { textDocumentSync: { openClose: true, change: 2 }, completionProvider: { triggerCharacters: ['.'] } },
  rules: {
    'textDocument/completion': [
      {
        sequence: 'completion',
        steps: [
          [{ delayMs: SLOW_FIRST_LIST_MS }, { respond: { isIncomplete: false, items: [{ label: 'valSlowWord', kind: 6 }] } }],
          [{ respond: { isIncomplete: false, items: [{ label: 'memberItem', kind: 2 }] } }],
        ],
      },
    ],
  },
};

describe.runIf(run)('quick suggestions wait for a pause once word lists are slow (fake kotlin-lsp)', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let session: FakeSession;

  beforeAll(async () => {
    stack = await startEditorStack();
    await putSettings(stack, { lsp_auto_start_languages: ['kotlin'] });
    session = await startFakeSession(stack, { binary: 'kotlin-lsp', script, files: { [MAIN]: source } });
    browser = await launchChromium();
    page = await (await newContext(browser.browser)).newPage();
    await openSession(page, stack.url, session.sessionId);
    await openFile(page, MAIN);
    await waitForLspState(page, 'kotlin', 'ready');
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('the first word list waits for a pause; after a slow one, typing on asks nothing until it pauses, and the trigger character asks at once', async () => {
    await setCaret(page, 4, 5);
    const keyTimes: number[] = [];
    const typeSteadily = async (text: string) => {
      for (const ch of text) {
        keyTimes.push(Date.now());
        await page.keyboard.type(ch);
        await page.waitForTimeout(40);
      }
    };
    // The first word, then a pause: only now does the first (slow) word list go out, and it shows
    // (its one item starts with the word, so Monaco's filter keeps it).
    const firstWord = TYPED.slice(0, TYPED.indexOf(' '));
    await typeSteadily(firstWord);
    await expect.poll(async () => (await suggestRows(page).allInnerTexts()).join('\n'), { timeout: 15_000 }).toContain('valSlowWord');
    await typeSteadily(TYPED.slice(firstWord.length));
    const triggerAt = Date.now();
    await page.keyboard.type('.');
    await expect.poll(async () => (await suggestRows(page).allInnerTexts()).join('\n'), { timeout: 15_000 }).toContain('memberItem');

    const completions = session.log().filter((l) => l.message.method === 'textDocument/completion');
    const wordLists = completions.filter((l) => l.message.params?.context?.triggerKind !== 2);
    const triggered = completions.filter((l) => l.message.params?.context?.triggerKind === 2);
    // The first word list waited for the pause after the first word (nothing was known of the server yet).
    expect(wordLists[0]?.message.params.position).toEqual({ line: 3, character: 4 + firstWord.length });
    // Every word list came only after a pause in typing, never right behind a keystroke.
    for (const list of wordLists) {
      const lastKey = Math.max(...keyTimes.filter((t) => t <= list.at));
      expect(list.at - lastKey, JSON.stringify(list.message.params.position)).toBeGreaterThanOrEqual(MIN_GAP_AFTER_KEY_MS);
    }
    expect(triggered.map((l) => l.message.params.context)).toEqual([{ triggerKind: 2, triggerCharacter: '.' }]);
    expect(triggered[0]!.at).toBeGreaterThanOrEqual(triggerAt);
  });
});
