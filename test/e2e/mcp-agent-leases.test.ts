import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpClientConfig } from '@kandev/protocol';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emulateScheme, expectTheme, screenshot, seriousAxeViolations } from '../support/app.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openFile, openLspPanel, openSession, putSettings, startEditorStack, waitForLspState } from '../support/page.js';
import { copyDemoWorkspace, type RunningStack } from '../support/stack.js';

/**
 * The person sees what the task's agents hold: an agent (the official MCP SDK client with the
 * session's agent token) asks pyright for a hover on the demo, and the status details of the
 * person's TypeScript editor list the agent's Python server apart from the person's own, with when
 * it is released. Real backend, real typescript-language-server and pyright, Chromium.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');
const THIRD_PARTY = ['.monaco-editor'];

describe.runIf(run)('agent leases in the status details', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let sessionId: string;
  let agent: Client | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    stack = await startEditorStack();
    await putSettings(stack, { lsp_auto_start_languages: ['typescript', 'python'] });
    const task = await stack.createTask({ title: 'Agent leases', workspace: copyDemoWorkspace() });
    sessionId = (await stack.startSession(task.id)).id;
    browser = await launchChromium();
  }, 300_000);

  // Each test's window closes when it ends: its TypeScript lease detaches and the next test's
  // window takes it over warm instead of starting typescript-language-server again.
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
  });

  afterAll(async () => {
    await agent?.close();
    await browser?.close();
    await stack?.stop();
  });

  async function editorPage(scheme: 'light' | 'dark', viewport: 'desktop' | 'tablet' = 'desktop'): Promise<Page> {
    const context = await newContext(browser.browser, viewport);
    contexts.push(context);
    const page = await context.newPage();
    await emulateScheme(page, scheme);
    await openSession(page, stack.url, sessionId);
    await expectTheme(page, scheme);
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready');
    return page;
  }

  it('before any agent call the details say no agent holds a server; after a hover through MCP they list its Python server, running', async () => {
    const page = await editorPage('light');
    const panel = await openLspPanel(page, 'typescript');
    await panel.locator('[data-testid="lsp-agent-leases-none"]').waitFor();
    expect(await panel.locator('[data-testid="lsp-agent-lease"]').count()).toBe(0);

    const config = await stack.api<McpClientConfig>(`/api/sessions/${sessionId}/mcp-config`, { method: 'POST' });
    const server = config.mcpServers.kandev!;
    agent = new Client({ name: 'e2e-agent', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }));
    const hover = (await agent.callTool({ name: 'hover', arguments: { path: 'app/util.py', symbol: 'add_numbers' } }, undefined, {
      timeout: 120_000,
    })) as CallToolResult;
    expect(hover.isError, JSON.stringify(hover.content)).toBeFalsy();

    // The details ask again while open: the agent's server shows without closing them.
    const lease = panel.locator('[data-testid="lsp-agent-lease"][data-language="python"]');
    await lease.waitFor({ timeout: 30_000 });
    expect(await lease.getAttribute('data-state')).toBe('running');
    expect(await lease.innerText()).toBe('Python: running');
    expect(await panel.locator('[data-testid="lsp-agent-lease"]').count()).toBe(1);
    expect(await panel.locator('.lsp-agent-leases-note').innerText()).toContain('10 minutes without a tool call');
    // The person's own TypeScript server is theirs, not listed as an agent's.
    expect(await panel.locator('[data-testid="lsp-agent-lease"][data-language="typescript"]').count()).toBe(0);
    await screenshot(page, 'agent-leases-desktop-light');
    expect((await seriousAxeViolations(page, THIRD_PARTY)).map((v) => `${v.id} ${v.nodes.join(' | ')}`)).toEqual([]);
  });

  it('dark: the same list, axe clean', async () => {
    const page = await editorPage('dark');
    const panel = await openLspPanel(page, 'typescript');
    await panel.locator('[data-testid="lsp-agent-lease"][data-language="python"]').waitFor();
    await screenshot(page, 'agent-leases-desktop-dark');
    expect((await seriousAxeViolations(page, THIRD_PARTY)).map((v) => `${v.id} ${v.nodes.join(' | ')}`)).toEqual([]);
  });

  it('tablet, dark: the drawer lists the same agent server, axe clean', async () => {
    const page = await editorPage('dark', 'tablet');
    const panel = await openLspPanel(page, 'typescript', 'tap');
    await panel.locator('[data-testid="lsp-agent-lease"][data-language="python"]').waitFor();
    await screenshot(page, 'agent-leases-tablet-dark');
    expect((await seriousAxeViolations(page, THIRD_PARTY)).map((v) => `${v.id} ${v.nodes.join(' | ')}`)).toEqual([]);
  });
});
