import type { SearchStreamLine } from '@kandev/protocol';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders } from '../support/access.js';
import { startTestBackend, type TestBackend } from './backend-support.js';

/**
 * The backend passes a streamed search through as it arrives (NDJSON from agentctl), and a
 * browser that goes away cancels the search on the task host. The task PATH has no ripgrep here,
 * so the walker runs and is still reading when the client leaves.
 */
const temp = mkdtempSync(join(tmpdir(), 'kandev-backend-search-'));
const workspace = join(temp, 'workspace');
const noRgBin = join(temp, 'bin');
let stack: TestBackend;
let sessionId: string;

beforeAll(async () => {
  mkdirSync(join(workspace, 'zz'), { recursive: true });
  mkdirSync(noRgBin);
  symlinkSync(process.execPath, join(noRgBin, 'node'));
  writeFileSync(join(workspace, 'a-first.txt'), 'the needle is here\n');
  for (let i = 0; i < 3000; i++) writeFileSync(join(workspace, 'zz', `f${String(i).padStart(5, '0')}.txt`), `hay ${i}\n`.repeat(50));
  stack = await startTestBackend();
  const task = await stack.api('POST', '/api/tasks', { title: 'search', executor: 'local_pc', repositories: [{ path: workspace }], env: { PATH: noRgBin } });
  sessionId = (await stack.api('POST', `/api/tasks/${task.json.id}/sessions`)).json.id;
});
afterAll(async () => {
  await stack?.close();
  rmSync(temp, { recursive: true, force: true });
});

describe('search through the backend', () => {
  it('streams NDJSON unchanged: hits, then done naming the engine', async () => {
    const res = await fetch(`${stack.url}/api/sessions/${sessionId}/search?q=needle&stream=1`, { headers: authHeaders() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const lines = (await res.text())
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as SearchStreamLine);
    expect(lines).toEqual([
      { type: 'hits', hits: [{ path: 'a-first.txt', line: 1, column: 5, preview: 'the needle is here' }] },
      { type: 'done', truncated: false, engine: 'walker' },
    ]);
  });

  it('the one-shot JSON answer and a bad query still answer as before', async () => {
    expect(await stack.api('GET', `/api/sessions/${sessionId}/search?q=needle`)).toMatchObject({
      status: 200,
      json: { hits: [{ path: 'a-first.txt', line: 1, column: 5 }] },
    });
    expect(await stack.api('GET', `/api/sessions/${sessionId}/search?q=${encodeURIComponent('(')}&regex=1&stream=1`)).toMatchObject({
      status: 400,
      json: { error: { code: 'bad_request' } },
    });
  });

  it('a browser that aborts after the first hit cancels the search on the task host', async () => {
    // agentctl's own log (one per session) says how each streamed search ended.
    const log = join(stack.home, 'logs', `agentctl-${sessionId}.log`);
    const endings = () => (existsSync(log) ? readFileSync(log, 'utf8') : '').match(/"search_(finished|cancelled)"/g) ?? [];
    // The walker reads the haystack in a few hundred ms; on a loaded machine the abort has reached
    // agentctl after the walk was done (nothing left to cancel), so a lost race is tried again, at
    // most five times. With cancelling broken, every try ends "finished" and the test fails.
    for (let attempt = 1; attempt <= 5; attempt++) {
      const before = endings().length;
      const abort = new AbortController();
      const res = await fetch(`${stack.url}/api/sessions/${sessionId}/search?q=needle&stream=1&word=1`, { signal: abort.signal, headers: authHeaders() });
      const reader = res.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('"a-first.txt"');
      abort.abort();
      await expect.poll(() => endings().length, { timeout: 20_000 }).toBe(before + 1);
      if (endings()[before] === '"search_cancelled"') return;
    }
    throw new Error(`five aborted searches all ended finished: ${endings().join(' ')}`);
  });
});
