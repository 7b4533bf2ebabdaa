import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import type { LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { putSettings, type FakeSession } from '../support/page.js';
import { openFakeEditor } from '../support/fakeEditor.js';
import type { RunningStack } from '../support/stack.js';

/**
 * The trace level of a language (Editors settings: off, messages, verbose) reaches the running
 * server as `$/setTrace`, and the server's `$/logTrace` lines show in its Output. The fake server
 * (installed as kotlin-lsp) stands in: none of the real servers here sends `$/logTrace` when asked
 * for a verbose trace (typescript-language-server, pyright and gopls were each asked, with
 * `trace: 'verbose'` in initialize and with `$/setTrace`, and sent none).
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const MAIN = 'src/Main.kt';
const files = { [MAIN]: ['fun main() {}', ''].join('\n') };

const script: FakeScript = {
  capabilities: { textDocumentSync: { openClose: true, change: 2 } },
  // A server that traces when asked to: one trace line per change of level, whatever the level
  // (what the test proves is that the page asked, and that the trace reached Output).
  rules: {
    '$/setTrace': [{ notify: '$/logTrace', params: { message: 'fake trace: level changed', verbose: 'details of the change' } }],
  },
};

describe.runIf(run)('trace level per language, from the scripted fake server (kotlin-lsp)', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let session: FakeSession;

  const setTraces = () =>
    session
      .log()
      .filter((l) => l.message.method === '$/setTrace')
      .map((l) => l.message.params);

  async function chooseTraceLevel(level: 'off' | 'messages' | 'verbose'): Promise<void> {
    const settingsPage = await page.context().newPage();
    await settingsPage.goto(`${stack.url}/?locale=en#/settings`);
    const select = settingsPage.locator('[data-testid="language-card"][data-language="kotlin"] [data-testid="trace-level-select"]');
    await select.selectOption(level);
    await expect.poll(() => select.isEnabled()).toBe(true);
    await settingsPage.close();
  }

  beforeAll(async () => {
    ({ stack, session, browser, page } = await openFakeEditor({ session: { binary: 'kotlin-lsp', script, files }, file: MAIN }));
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('the server was asked for no trace at first (the default is off) and sent none', async () => {
    const initialize = session.log().find((l) => l.message.method === 'initialize')?.message.params as { trace?: string } | undefined;
    expect(initialize?.trace).toBe('off');
    expect(setTraces()).toEqual([]);
  });

  it('verbose in the Editors settings reaches the running server as $/setTrace, and its trace shows in Output as a trace line', async () => {
    await chooseTraceLevel('verbose');
    await expect.poll(setTraces, { timeout: 30_000 }).toEqual([{ value: 'verbose' }]);
    await page.getByTestId('output-toggle').click();
    const line = page.getByTestId('output-line').filter({ hasText: 'fake trace: level changed' });
    await line.waitFor({ timeout: 30_000 });
    expect(await line.getAttribute('data-source')).toBe('trace');
    expect(await line.innerText()).toContain('details of the change');
  });

  it('off again: the server hears $/setTrace off once; the same level saved again sends nothing', async () => {
    await chooseTraceLevel('off');
    await expect.poll(setTraces, { timeout: 30_000 }).toEqual([{ value: 'verbose' }, { value: 'off' }]);
    // Saved again with the level the server already has: the broker compares with what it asked for.
    await putSettings(stack, { lsp_trace_levels: { kotlin: 'off' } });
    await chooseTraceLevel('messages');
    await expect.poll(setTraces, { timeout: 30_000 }).toEqual([{ value: 'verbose' }, { value: 'off' }, { value: 'messages' }]);
  });
});
