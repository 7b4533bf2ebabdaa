import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpClientConfig } from '@kandev/protocol';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openTaskEditor } from '../support/fakeEditor.js';
import { openFile, putSettings, sessionModelText, startEditorStack, waitForLspState } from '../support/page.js';
import { copyDemoWorkspace, type RunningStack } from '../support/stack.js';

/**
 * An agent's rename lands in the person's open tabs: the real backend, the real
 * typescript-language-server on the demo, Chromium showing `src/greeter.ts` and `src/main.ts`
 * (open and clean), and the official MCP SDK client with the session's agent token.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

describe.runIf(run)("an agent's applied rename reaches the person's clean tabs", () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let workspace: string;
  let sessionId: string;
  let agent: Client;

  const tab = (path: string) => page.locator(`[data-testid="editor-tab"][data-path="${path}"]`);
  const onDisk = (path: string) => readFileSync(join(workspace, path), 'utf8');

  beforeAll(async () => {
    stack = await startEditorStack();
    await putSettings(stack, { lsp_auto_start_languages: ['typescript'] });
    workspace = copyDemoWorkspace();
    ({ sessionId, browser, page } = await openTaskEditor(stack, { title: 'Agent rename', workspace }));
    await openFile(page, 'src/main.ts');
    await openFile(page, 'src/greeter.ts');
    await waitForLspState(page, 'typescript', 'ready');
    // The page follows the disk once its live-workspace feed is up: its first git state came (not a repository here).
    await page.locator('[data-testid="changes-panel"]:not([data-git="waiting"])').waitFor();
    // What `npm run mcp -- config --session` prints: the endpoint and a new agent token.
    const config = await stack.api<McpClientConfig>(`/api/sessions/${sessionId}/mcp-config`, { method: 'POST' });
    const server = config.mcpServers.kandev!;
    agent = new Client({ name: 'e2e-agent', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }));
  }, 300_000);

  afterAll(async () => {
    await agent?.close();
    await browser?.close();
    await stack?.stop();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it('rename with apply: true writes both files and both clean tabs show the new text, still clean', async () => {
    expect(await sessionModelText(page, sessionId, 'src/main.ts')).toBe(onDisk('src/main.ts'));
    expect(await tab('src/greeter.ts').getAttribute('data-dirty')).toBe('false');
    expect(await tab('src/main.ts').getAttribute('data-dirty')).toBe('false');
    // The Outline of the active file (src/greeter.ts) lists the function by its old name.
    const outline = page.locator('[data-testid="outline"]');
    await outline.locator('[data-symbol="createGreeter"]').waitFor({ timeout: 60_000 });

    const result = (await agent.callTool(
      { name: 'rename', arguments: { path: 'src/greeter.ts', symbol: 'createGreeter', new_name: 'makeGreeter', apply: true } },
      undefined,
      { timeout: 120_000 },
    )) as CallToolResult;
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    expect(result.isError, text).toBeFalsy();
    expect(text).toMatch(/^applied: 2 files written/);
    expect(result.structuredContent).toMatchObject({ applied: true });

    // Written to disk through the files route before the answer came.
    expect(onDisk('src/greeter.ts')).toContain('export function makeGreeter(prefix: string): Greeter {');
    expect(onDisk('src/main.ts')).toContain("import { makeGreeter } from './greeter';\n\nconst greeter = makeGreeter('Hello');");
    // The tabs follow the disk through the live workspace (the watcher's event reaches the page).
    for (const path of ['src/greeter.ts', 'src/main.ts']) {
      await expect.poll(() => sessionModelText(page, sessionId, path), { timeout: 30_000 }).toBe(onDisk(path));
      expect(await tab(path).getAttribute('data-dirty')).toBe('false');
    }
    expect(await page.locator('[data-testid="disk-changed"]').count()).toBe(0);
    // The visible editor shows it too, not only the model.
    await expect
      .poll(async () => (await page.locator('[data-testid="editor"][data-path="src/greeter.ts"] .view-lines').innerText()).replace(/\u00a0/g, ' '), {
        timeout: 10_000,
      })
      .toMatch(/export function makeGreeter\(prefix: string\): Greeter/);
    // The Outline follows the text that came from disk: the new name, and the old one gone.
    await outline.locator('[data-symbol="makeGreeter"]').waitFor({ timeout: 30_000 });
    expect(await outline.locator('[data-symbol="createGreeter"]').count()).toBe(0);
    if (process.env.MCP34_SHOT) await page.screenshot({ path: process.env.MCP34_SHOT });
  }, 240_000);
});
