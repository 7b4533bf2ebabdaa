import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@kandev/kit';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Action, FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { methodsReceived } from '../support/fakeServer.js';
import { eventually, fakeKotlinTask, removeTask, startLeaseBackend, type FakeTask, type LeaseBackend } from './lease-support.js';
import { agentToken, connect } from './mcp-support.js';

/**
 * Warm-up (docs/agents.md, "Indexing"): while the server reports work-done progress, `references`,
 * `workspace_symbols`, `call_hierarchy` and `rename` wait, bounded on the backend's clock (a fake
 * one here), and then refuse with a distinct "indexing" error instead of an empty answer. The fake
 * server (as `kotlin-lsp`) reports progress on cue: document symbols begin it, a hover ends it.
 */
const INDEXING_WAIT_MS = 20_000;
const progress = (token: string, value: Record<string, unknown>): Action => ({ notify: '$/progress', params: { token, value } });
const at = (line: number, character: number) => ({ start: { line, character }, end: { line, character: character + 4 } });

const script: FakeScript = {
  capabilities: {
    hoverProvider: true,
    documentSymbolProvider: true,
    referencesProvider: true,
    workspaceSymbolProvider: true,
    callHierarchyProvider: true,
    renameProvider: true,
  },
  rules: {
    // The progress notification is written before the answer, so it has reached the agent's client when the answer does.
    'textDocument/documentSymbol': [progress('index', { kind: 'begin', title: 'Indexing Gradle project' }), { respond: [] }],
    'textDocument/hover': [progress('index', { kind: 'end' }), { respond: { contents: 'indexing ended' } }],
    'textDocument/references': [{ respond: [{ uri: '$uri', range: at(0, 4) }] }],
    'workspace/symbol': [{ respond: [] }],
    'textDocument/prepareCallHierarchy': [{ respond: [] }],
    'textDocument/rename': [{ respond: null }],
  },
};

const clock = new ManualClock();
let stack: LeaseBackend;
let task: FakeTask;
let client: Client;

beforeAll(async () => {
  stack = await startLeaseBackend({}, { clock });
  await stack.api('PUT', '/api/settings', { lsp_auto_start_languages: ['kotlin'] });
  task = await fakeKotlinTask(stack, script, 'indexing');
  const { url, token } = await agentToken(stack, task.sessionId);
  client = await connect(url, token);
}, 120_000);

afterAll(async () => {
  await client?.close();
  await stack?.close();
  if (task) removeTask(task);
});

/** Starts a tool call; `notes` collects its progress notifications (the wait says so in one). */
function start(name: string, args: Record<string, unknown>): { answer: Promise<CallToolResult & { text: string }>; notes: string[] } {
  const notes: string[] = [];
  const answer = client.callTool({ name, arguments: args }, undefined, { timeout: 120_000, onprogress: (p) => notes.push(String(p.message)) }).then((r) => {
    const result = r as CallToolResult;
    return { ...result, text: result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n') };
  });
  return { answer, notes };
}

/** How many times the fake server was asked `method` (its log records what it received). */
const received = (method: string) => methodsReceived(task.logFile).filter((m) => m === method).length;

async function beginIndexing(): Promise<void> {
  const outline = start('document_symbols', { path: 'Main.kt' });
  expect((await outline.answer).isError).toBeFalsy();
}

describe('mcp: tools that need the whole workspace wait for indexing', () => {
  it('references waits while the server indexes, and answers once the progress ends', async () => {
    await beginIndexing();
    const references = start('references', { path: 'Main.kt', line: 1, column: 5 });
    expect(await eventually(() => references.notes.length > 0, 2000)).toBe(true);
    expect(references.notes[0]).toMatch(/^waiting up to 20 s for the kotlin server to finish indexing \(Indexing Gradle project\)$/);
    // Waiting: the server was not asked, so nothing partial can come back.
    expect(received('textDocument/references')).toBe(0);
    // A hover (not a whole-workspace tool: it does not wait) makes the fake end its progress.
    const hover = start('hover', { path: 'Main.kt', line: 1, column: 5 });
    expect((await hover.answer).text).toContain('indexing ended');
    const answered = await references.answer;
    expect(answered.isError).toBeFalsy();
    expect(answered.text).toMatch(/^1 references result for Main\.kt:1:5\nMain\.kt:1:5/);
    expect(received('textDocument/references')).toBe(1);
  }, 120_000);

  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['references', { path: 'Main.kt', line: 1, column: 5 }, 'textDocument/references'],
    ['workspace_symbols', { query: 'main', language: 'kotlin' }, 'workspace/symbol'],
    ['call_hierarchy', { path: 'Main.kt', line: 1, column: 5 }, 'textDocument/prepareCallHierarchy'],
    ['rename', { path: 'Main.kt', line: 1, column: 5, new_name: 'start', apply: true }, 'textDocument/rename'],
  ];
  for (const [tool, args, method] of cases) {
    it(`${tool}: indexing that outlasts the bound is a distinct "indexing" error, never an empty answer`, async () => {
      await beginIndexing();
      const before = received(method);
      const call = start(tool, args);
      expect(await eventually(() => call.notes.length > 0, 2000)).toBe(true);
      // One millisecond short of the bound: still waiting.
      clock.advance(INDEXING_WAIT_MS - 1);
      const early = await Promise.race([call.answer.then(() => 'answered'), new Promise((r) => setTimeout(() => r('waiting'), 200))]);
      expect(early).toBe('waiting');
      clock.advance(1);
      const answer = await call.answer;
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/^indexing: the kotlin server is still indexing \(Indexing Gradle project\); nothing was answered, call again shortly$/);
      expect(answer.structuredContent).toMatchObject({ error: 'indexing' });
      expect(received(method)).toBe(before);
      // End the progress for the next case.
      await start('hover', { path: 'Main.kt', line: 1, column: 5 }).answer;
    }, 120_000);
  }
});
