import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@kandev/kit';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Action, FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { EventsClient } from '../support/eventsClient.js';
import { eventually, fakeKotlinTask, removeTask, startLeaseBackend, type FakeTask, type LeaseBackend } from './lease-support.js';
import { agentToken, connect } from './mcp-support.js';

/**
 * Freshness (docs/agents.md): each file of a `diagnostics` answer says whether it is `fresh` for
 * the disk content its server has, `timed_out` at the per-server limit or `indexing`, measured on
 * the backend's clock (a fake one here, so each moment is asserted exactly). The fake server (as
 * `kotlin-lsp`) publishes only on cue: a hover publishes for its file, document symbols begin
 * indexing progress and a definition ends it. It also offers pull diagnostics, merged with what
 * it pushes.
 */
const SETTLE_QUIET_MS = 500;
const LIMIT_MS = 60_000; // the default per-server limit (kotlin has no longer one)
const at = (line: number, character: number) => ({ start: { line, character }, end: { line, character: character + 3 } });
const problem = (line: number, message: string, code: string) => ({ range: at(line, 0), severity: 1, source: 'fake', code, message });
const progress = (kind: 'begin' | 'end'): Action => ({
  notify: '$/progress',
  params: { token: 'index', value: kind === 'begin' ? { kind, title: 'Indexing Gradle project' } : { kind } },
});

const script: FakeScript = {
  capabilities: {
    hoverProvider: true,
    definitionProvider: true,
    documentSymbolProvider: true,
    diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false },
  },
  rules: {
    // Written before the answer, so the backend has each notification when the tool's answer comes.
    'textDocument/hover': [
      {
        notify: 'textDocument/publishDiagnostics',
        params: { uri: '$uri', diagnostics: [problem(0, 'pushed problem', 'P1'), problem(1, 'reported both ways', 'B1')] },
      },
      { respond: { contents: 'published' } },
    ],
    'textDocument/diagnostic': [{ respond: { kind: 'full', items: [problem(1, 'reported both ways', 'B1'), problem(2, 'pulled problem', 'L1')] } }],
    'textDocument/documentSymbol': [progress('begin'), { respond: [] }],
    'textDocument/definition': [progress('end'), { respond: null }],
  },
};

const FILES = ['Waits.kt', 'Merged.kt', 'Stale.kt', 'Indexing.kt'];
const clock = new ManualClock();
let stack: LeaseBackend;
let task: FakeTask;
let client: Client;
let events: EventsClient;

beforeAll(async () => {
  stack = await startLeaseBackend({}, { clock });
  await stack.api('PUT', '/api/settings', { lsp_auto_start_languages: ['kotlin'] });
  // Written before the session starts, so no watcher event about them lands in a wait below.
  task = await fakeKotlinTask(stack, script, 'freshness', Object.fromEntries(FILES.map((f) => [f, 'val a = 1\nval b = 2\nval c = 3\n'])));
  const { url, token } = await agentToken(stack, task.sessionId);
  client = await connect(url, token);
  // The session's live-workspace feed, as a page has it: the MCP endpoint follows the same one.
  events = new EventsClient(stack.url, task.sessionId);
  await events.opened;
}, 120_000);

afterAll(async () => {
  events?.close();
  await client?.close();
  await stack?.close();
  if (task) removeTask(task);
});

type Answer = CallToolResult & { text: string };

/** Starts a tool call; `notes` collects its progress notifications (the diagnostics wait says so in one). */
function start(name: string, args: Record<string, unknown>): { answer: Promise<Answer>; notes: string[] } {
  const notes: string[] = [];
  const answer = client.callTool({ name, arguments: args }, undefined, { timeout: 120_000, onprogress: (p) => notes.push(String(p.message)) }).then((r) => {
    const result = r as CallToolResult;
    return { ...result, text: result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n') };
  });
  return { answer, notes };
}

/**
 * A diagnostics call, once it has said that it waits (its start is then on the clock). The answer
 * comes wrapped: an async function returning the promise itself would wait for it.
 */
async function waitingDiagnostics(path: string): Promise<{ answer: Promise<Answer> }> {
  const call = start('diagnostics', { paths: [path] });
  let early: Answer | undefined;
  void call.answer.then((a) => (early = a));
  expect(await eventually(() => call.notes.length > 0 || early !== undefined, 2000)).toBe(true);
  expect(early?.text).toBeUndefined();
  expect(call.notes[0]).toBe("waiting up to 60 s for the kotlin server's diagnostics");
  return { answer: call.answer };
}

/** Still unanswered: given a moment (real time) to answer, it did not. */
async function stillWaiting(answer: Promise<Answer>): Promise<boolean> {
  return (await Promise.race([answer.then(() => 'answered'), new Promise((r) => setTimeout(() => r('waiting'), 300))])) === 'waiting';
}

/**
 * The answer a clock move must have released: bounded in real time, so a disk change the watcher
 * reported late (it moves the backend's disk mark, and the wait then needs 3 s of quiet, which a
 * test that moves the clock by 0.5 s never gives) fails here naming the frames, instead of hanging.
 */
async function released(answer: Promise<Answer>, framesBefore: number): Promise<Answer> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const disk = events.frames.slice(framesBefore).filter((f) => f.type === 'files' || f.type === 'overflow');
      reject(new Error(`no answer 15 s after the clock released it; watcher frames meanwhile: ${JSON.stringify(disk)}`));
    }, 15_000);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Makes the fake publish for `path` (it does before it answers the hover). */
async function publish(path: string): Promise<void> {
  expect((await start('hover', { path, line: 1, column: 1 }).answer).text).toContain('published');
}

const fileState = (answer: Answer, path: string) =>
  (answer.structuredContent as { files: Array<{ path: string; freshness: string }> }).files.find((f) => f.path === path)?.freshness;

describe('mcp: diagnostics freshness on the backend clock', () => {
  it('a call before the server published waits, and answers fresh with the findings once it published and was quiet', async () => {
    const framesBefore = events.frames.length;
    const { answer } = await waitingDiagnostics('Waits.kt');
    // Nothing published for the content it was given: quiet alone does not make it fresh.
    clock.advance(SETTLE_QUIET_MS * 10);
    expect(await stillWaiting(answer)).toBe(true);
    await publish('Waits.kt');
    clock.advance(SETTLE_QUIET_MS - 1);
    expect(await stillWaiting(answer)).toBe(true);
    clock.advance(1);
    const done = await released(answer, framesBefore);
    expect(fileState(done, 'Waits.kt')).toBe('fresh');
    expect(done.text).toMatch(/^Waits\.kt: fresh, 3 error$/m);
    expect(done.text).toMatch(/^Waits\.kt:1:1 error \[fake P1\]: pushed problem$/m);
  }, 120_000);

  it('pushed and pulled diagnostics of one file are merged, a problem reported both ways once', async () => {
    const framesBefore = events.frames.length;
    const { answer } = await waitingDiagnostics('Merged.kt');
    await publish('Merged.kt');
    clock.advance(SETTLE_QUIET_MS);
    const done = await released(answer, framesBefore);
    expect(done.text.split('\n').filter((l) => /^Merged\.kt:\d/.test(l))).toEqual([
      'Merged.kt:1:1 error [fake P1]: pushed problem',
      'Merged.kt:2:1 error [fake B1]: reported both ways',
      'Merged.kt:3:1 error [fake L1]: pulled problem',
    ]);
    expect(fileState(done, 'Merged.kt')).toBe('fresh');
  }, 120_000);

  it('while the server reports indexing, a published file is not fresh: at the limit it says indexing', async () => {
    const framesBefore = events.frames.length;
    expect((await start('document_symbols', { path: 'Indexing.kt' }).answer).isError).toBeFalsy();
    const { answer } = await waitingDiagnostics('Indexing.kt');
    await publish('Indexing.kt');
    clock.advance(SETTLE_QUIET_MS);
    expect(await stillWaiting(answer)).toBe(true);
    clock.advance(LIMIT_MS);
    const done = await released(answer, framesBefore);
    expect(fileState(done, 'Indexing.kt')).toBe('indexing');
    expect(done.text).toMatch(/^Indexing\.kt: indexing, /m);
    // The indexing ends (a definition makes the fake say so): the same file is fresh after the quiet.
    await start('definition', { path: 'Indexing.kt', line: 1, column: 1 }).answer;
    const next = start('diagnostics', { paths: ['Indexing.kt'] });
    expect(await eventually(() => next.notes.length > 0, 2000)).toBe(true);
    clock.advance(SETTLE_QUIET_MS);
    expect(fileState(await released(next.answer, framesBefore), 'Indexing.kt')).toBe('fresh');
  }, 120_000);

  // Last, as the only test that changes the disk: the watcher's reports of a write (its burst
  // check lists the folder again a second later, and on a loaded machine a report came late) move
  // the backend's disk mark, and a later test's file then needs 3 s of quiet where its clock moves
  // 0.5 s. CI saw the indexing test hang twice while this test came before it (a write during it
  // reproduces the hang).
  it('a server that publishes nothing for the new disk content is timed_out at the per-server limit, not clean', async () => {
    const framesBefore = events.frames.length;
    const { answer: first } = await waitingDiagnostics('Stale.kt');
    await publish('Stale.kt');
    clock.advance(SETTLE_QUIET_MS);
    expect(fileState(await released(first, framesBefore), 'Stale.kt')).toBe('fresh');
    writeFileSync(join(task.dir, 'workspace', 'Stale.kt'), 'val a = 1\n');
    // The watcher's report of the write is on the disk mark before the call below. The feed sends
    // each frame to the MCP endpoint's follower before this socket, in one broadcast.
    await events.waitFor((f) => f.type === 'files' && JSON.stringify(f).includes('Stale.kt'));
    const { answer } = await waitingDiagnostics('Stale.kt');
    clock.advance(LIMIT_MS - 1);
    expect(await stillWaiting(answer)).toBe(true);
    clock.advance(1);
    const done = await released(answer, events.frames.length);
    expect(fileState(done, 'Stale.kt')).toBe('timed_out');
    expect(done.text).toMatch(/^Stale\.kt: timed_out, /m);
  }, 120_000);
});
