import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  openFile,
  openSession,
  putSettings,
  received,
  runEditorAction,
  setCaret,
  startEditorStack,
  startFakeSession,
  waitForLspState,
  type FakeSession,
} from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

/**
 * Semantic tokens (S17) and per-language settings reaching a live server (S23), against the fake
 * server installed as `kotlin-lsp`. The fake's log counts what the server was asked and shows the
 * answers it got to its own requests.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const MAIN = 'src/Main.kt';
const source = ['package demo', '', 'fun main() {', '    val greeting = "hi"', '    println(greeting)', '}', ''].join('\n');
const sync = { openClose: true, change: 2 };
const hoverAnswer = { respond: { contents: { kind: 'plaintext', value: 'fake hover' } } };
const askKotlinSection = { request: 'workspace/configuration', params: { items: [{ section: 'kotlin' }] } };

/** Empty tokens, always; a hover makes the server ask the client to refresh semantic tokens. */
const tokensScript: FakeScript = {
  capabilities: {
    textDocumentSync: sync,
    hoverProvider: true,
    semanticTokensProvider: { legend: { tokenTypes: ['variable'], tokenModifiers: [] }, full: true },
  },
  rules: {
    'textDocument/semanticTokens/full': [{ respond: { data: [] } }],
    'textDocument/hover': [{ request: 'workspace/semanticTokens/refresh' }, hoverAnswer],
  },
};

/** A pull-model server: it asks for its section after initialized and whenever told settings changed. */
const configScript: FakeScript = {
  capabilities: { textDocumentSync: sync, hoverProvider: true },
  rules: {
    initialized: [askKotlinSection],
    'workspace/didChangeConfiguration': [askKotlinSection],
    'textDocument/hover': [hoverAnswer],
  },
};

/** Answers the server got to its own requests (JSON-RPC responses it received), in order. */
function answers(session: FakeSession): Array<{ id: unknown; result?: unknown; error?: unknown }> {
  return session
    .log()
    .map((l) => l.message)
    .filter((m) => m.method === undefined && typeof m.id === 'string' && String(m.id).startsWith('fake-')) as never;
}

describe.runIf(run)('semantic tokens and live settings against the fake server (kotlin-lsp)', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let tokens: FakeSession;
  let config: FakeSession;

  beforeAll(async () => {
    stack = await startEditorStack();
    await putSettings(stack, { lsp_auto_start_languages: ['kotlin'], lsp_server_configs: { kotlin: { kotlin: { inlayHints: { enabled: false } } } } });
    tokens = await startFakeSession(stack, { binary: 'kotlin-lsp', script: tokensScript, files: { [MAIN]: source } });
    config = await startFakeSession(stack, { binary: 'kotlin-lsp', script: configScript, files: { [MAIN]: source } });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('S17 an empty semantic-token array is one completed request, never retried over minutes of (fake) time; a server refresh asks again', async () => {
    let context: BrowserContext | undefined;
    try {
      context = await newContext(browser.browser);
      const page = await context.newPage();
      // The page's timers run on Playwright's clock, so minutes can pass without waiting for them.
      await page.clock.install();
      const requests = () => received(tokens, 'textDocument/semanticTokens/full');
      await openSession(page, stack.url, tokens.sessionId);
      await openFile(page, MAIN);
      await waitForLspState(page, 'kotlin', 'ready');
      await expect.poll(() => requests().length, { timeout: 15_000 }).toBe(1);
      expect(requests()[0]!.params).toEqual({ textDocument: { uri: tokens.fileUri(MAIN) } });

      // Ten minutes of page time, a slice at a time with real pauses for any request and its answer.
      for (let i = 0; i < 20; i++) {
        await page.clock.runFor(30_000);
        await page.waitForTimeout(50);
      }
      expect(requests()).toHaveLength(1);

      // The server asks for a refresh (on hover, in this script): Monaco asks again, once.
      await setCaret(page, 5, 14);
      await runEditorAction(page, 'editor.action.showHover');
      await page.clock.runFor(1_000);
      await expect.poll(() => answers(tokens).length, { timeout: 15_000 }).toBe(1);
      expect(answers(tokens)[0]).toMatchObject({ id: 'fake-1', result: null });
      await expect
        .poll(
          async () => {
            await page.clock.runFor(1_000);
            return requests().length;
          },
          { timeout: 15_000 },
        )
        .toBe(2);
      for (let i = 0; i < 10; i++) {
        await page.clock.runFor(30_000);
        await page.waitForTimeout(50);
      }
      expect(requests()).toHaveLength(2);
    } finally {
      await context?.close();
    }
  });

  it('S23 saving different LSP JSON in Settings reaches the live server: didChangeConfiguration, new workspace/configuration answers, no second server', async () => {
    let page: Page | undefined;
    try {
      page = await (await newContext(browser.browser)).newPage();
      await openSession(page, stack.url, config.sessionId);
      await openFile(page, MAIN);
      await waitForLspState(page, 'kotlin', 'ready');
      // Asked after initialized: the configuration it was started with.
      await expect.poll(() => answers(config).length, { timeout: 15_000 }).toBe(1);
      expect(answers(config)[0]).toMatchObject({ result: [{ inlayHints: { enabled: false } }] });

      await page.locator('[data-testid="settings-link"]').click();
      const card = page.locator('[data-testid="language-card"][data-language="kotlin"]');
      await card.locator('[data-testid="lsp-config-input"]').fill('{"kotlin": {"inlayHints": {"enabled": true}}}');
      await card.locator('[data-testid="lsp-config-save"]').click();
      await card.locator('[data-testid="lsp-config-saved"]').waitFor();

      await expect.poll(() => received(config, 'workspace/didChangeConfiguration').length, { timeout: 15_000 }).toBe(1);
      expect(received(config, 'workspace/didChangeConfiguration')[0]!.params).toEqual({ settings: { kotlin: { inlayHints: { enabled: true } } } });
      await expect.poll(() => answers(config).length, { timeout: 15_000 }).toBe(2);
      expect(answers(config)[1]).toMatchObject({ result: [{ inlayHints: { enabled: true } }] });

      // The same process, initialized once, still serving the editor.
      expect(received(config, 'initialize')).toHaveLength(1);
      expect(new Set(config.log().map((l) => l.pid)).size).toBe(1);
      await openSession(page, stack.url, config.sessionId);
      await openFile(page, MAIN);
      await waitForLspState(page, 'kotlin', 'ready');
      const hovers = received(config, 'textDocument/hover').length;
      await setCaret(page, 5, 14);
      await runEditorAction(page, 'editor.action.showHover');
      await expect.poll(() => received(config, 'textDocument/hover').length, { timeout: 15_000 }).toBe(hovers + 1);
      expect(received(config, 'initialize')).toHaveLength(1);
    } finally {
      await page?.context().close();
    }
  });
});
