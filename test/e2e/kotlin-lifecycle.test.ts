import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { ensureBuilt } from '../support/build.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { installFakeServer, methodsReceived, readLog, writeScript } from '../support/fakeServer.js';
import { lspStatus, openFile, openSession, placeCaret, waitForLspState } from '../support/page.js';
import { startStack, taskPath, type RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

/** A workspace with one Kotlin file, and a bin folder for whatever `kotlin-lsp` the test wants. */
function kotlinWorkspace(): { workspace: string; bin: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kandev-kotlin-'));
  const workspace = join(dir, 'workspace');
  mkdirSync(join(workspace, 'src'), { recursive: true });
  writeFileSync(join(workspace, 'src/Main.kt'), 'fun main() {\n    val greeting = "hello"\n    println(greeting)\n}\n');
  return { workspace, bin: join(dir, 'bin'), dir };
}

const hoverScript = (extra: FakeScript['rules'] = {}): FakeScript => ({
  capabilities: { hoverProvider: true, textDocumentSync: 1 },
  rules: { 'textDocument/hover': [{ respond: { contents: { kind: 'markdown', value: '**greeting**: String from fake kotlin-lsp' } } }], ...extra },
});

async function hoverText(page: Page): Promise<string> {
  await placeCaret(page, 'greeting', 2);
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Control+I');
  const hover = page.locator('.monaco-hover:not(.hidden)');
  await hover.first().waitFor({ timeout: 30_000 });
  return hover.first().innerText();
}

describe.runIf(run)('Kotlin through a fake kotlin-lsp on the task PATH', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    ensureBuilt('web-test');
    // These suites are about a server's final exit (4006, Retry); restarts are covered in faults-restart.
    stack = await startStack({ KANDEV_LSP_RESTART_LIMIT: '0' });
    // S01's precondition: Kotlin auto-start is enabled in the user's settings.
    await stack.api('/api/settings', { method: 'PUT', body: { lsp_auto_start_languages: ['typescript', 'python', 'go', 'kotlin'] } });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  async function sessionWith(setup: (bin: string, dir: string) => Record<string, string>): Promise<{ page: Page; sessionId: string }> {
    const { workspace, bin, dir } = kotlinWorkspace();
    const env = setup(bin, dir);
    const task = await stack.createTask({ title: 'Kotlin', workspace, env: { PATH: taskPath(bin), ...env } });
    const sessionId = (await stack.startSession(task.id)).id;
    const page = await (await newContext(browser.browser)).newPage();
    await openSession(page, stack.url, sessionId);
    await openFile(page, 'src/Main.kt');
    return { page, sessionId };
  }

  it('S01 a .kt file reaches ready with auto-start and Monaco registers the Kotlin hover provider', async () => {
    let log = '';
    const { page } = await sessionWith((bin, dir) => {
      installFakeServer(bin, 'kotlin-lsp');
      log = join(dir, 'log.jsonl');
      return { FAKE_LSP_SCRIPT: writeScript(dir, hoverScript()), FAKE_LSP_LOG: log };
    });
    await waitForLspState(page, 'kotlin', 'ready');
    expect(await hoverText(page)).toContain('String from fake kotlin-lsp');
    expect(methodsReceived(log)).toEqual(expect.arrayContaining(['initialize', 'initialized', 'textDocument/didOpen', 'textDocument/hover']));
    const didOpen = readLog(log).find((l) => l.message.method === 'textDocument/didOpen');
    expect(didOpen?.message.params.textDocument.languageId).toBe('kotlin');
    await page.close();
  });

  it('S31 a server that exits shows the localized exited error with Retry, and Retry starts a working server', async () => {
    let log = '';
    const { page } = await sessionWith((bin, dir) => {
      installFakeServer(bin, 'kotlin-lsp');
      log = join(dir, 'log.jsonl');
      // The first hover ever crashes the server; the restarted one answers.
      const script = hoverScript({
        'textDocument/hover': [{ once: join(dir, 'crashed'), actions: [{ exit: 3 }] }, { respond: { contents: 'answered after retry' } }],
      });
      return { FAKE_LSP_SCRIPT: writeScript(dir, script), FAKE_LSP_LOG: log };
    });
    await waitForLspState(page, 'kotlin', 'ready');
    await placeCaret(page, 'greeting', 2);
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    await waitForLspState(page, 'kotlin', 'error');
    const status = lspStatus(page);
    await expect.poll(() => status.innerText()).toContain('stopped unexpectedly');
    expect(await status.innerText()).not.toMatch(/4006|reason|\[object Object\]/);
    await page.locator('[data-testid="lsp-retry"]').click();
    await waitForLspState(page, 'kotlin', 'ready');
    expect(await hoverText(page)).toContain('answered after retry');
    expect(new Set(readLog(log).map((l) => l.pid)).size).toBe(2);
    await page.close();
  });

  it('S29 an initialize rejected with a JSON-RPC error shows the server message, not [object Object]', async () => {
    const { page } = await sessionWith((bin, dir) => {
      installFakeServer(bin, 'kotlin-lsp');
      const script: FakeScript = { rules: { initialize: [{ error: { code: -32603, message: 'Gradle project model could not be loaded' } }] } };
      return { FAKE_LSP_SCRIPT: writeScript(dir, script) };
    });
    await waitForLspState(page, 'kotlin', 'error');
    await expect.poll(() => lspStatus(page).innerText()).toContain('Gradle project model could not be loaded');
    expect(await lspStatus(page).innerText()).not.toContain('[object Object]');
    await page.close();
  });

  it('S28 a kotlin-lsp that cannot be launched shows the localized start failure and no task-host detail', async () => {
    const { page } = await sessionWith((bin) => {
      mkdirSync(bin, { recursive: true });
      // Found on PATH but not executable: the launch fails with EACCES on the task host.
      writeFileSync(join(bin, 'kotlin-lsp'), '#!/bin/sh\nexit 0\n');
      chmodSync(join(bin, 'kotlin-lsp'), 0o644);
      return {};
    });
    await waitForLspState(page, 'kotlin', 'error');
    await expect.poll(() => lspStatus(page).innerText()).toContain('could not be started');
    expect(await lspStatus(page).innerText()).not.toMatch(/EACCES|permission|spawn/i);
    await page.close();
  });
});
