import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ManualClock } from '@kandev/kit';
import { TASK_HOST_PATHS } from '@kandev/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentctlClient } from './agentctlClient.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** An agentctl stand-in; `arrived` settles once a request reached it (so a deadline can be moved past). */
async function agentctl(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  let arrivedResolve: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (arrivedResolve = resolve));
  server = createServer((req, res) => {
    arrivedResolve();
    handle(req, res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { endpoint: { baseUrl: `http://127.0.0.1:${port}`, token: 't0k' }, arrived };
}

describe('AgentctlClient deadlines', () => {
  it('gives up on a request whose answer does not come within its timeout on the clock', async () => {
    const { endpoint, arrived } = await agentctl(() => undefined);
    const clock = new ManualClock();
    const answer = new AgentctlClient(endpoint, clock).forward('GET', TASK_HOST_PATHS.health, undefined, 5_000);
    await arrived;
    clock.advance(5_000);
    const result = await answer;
    expect(!result.ok && result.error).toMatch(/^agentctl unreachable: .*timeout/);
    expect(clock.pending).toBe(0);
  });

  it('answers a request in time and leaves no timer behind', async () => {
    const { endpoint } = await agentctl((req, res) => {
      expect(req.headers.authorization).toBe('Bearer t0k');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"workspacePath":"/w","workspaceUri":"file:///w","repoSubpaths":["a"]}');
    });
    const clock = new ManualClock();
    const health = await new AgentctlClient(endpoint, clock).health(5_000);
    expect(health).toEqual({ ok: true, value: { workspacePath: '/w', workspaceUri: 'file:///w', repoSubpaths: ['a'] } });
    expect(clock.pending).toBe(0);
  });

  it('bounds only the wait for the headers of a streamed answer', async () => {
    const { endpoint } = await agentctl((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write('{"n":1}\n');
    });
    const clock = new ManualClock();
    const streamed = await new AgentctlClient(endpoint, clock).open(`${TASK_HOST_PATHS.search}?q=x&stream=1`, 5_000);
    if (!streamed.ok) throw new Error(streamed.error);
    expect(clock.pending).toBe(0);
    clock.advance(60_000);
    const first = await new Promise<string>((resolve) => streamed.value.body.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
    expect(first).toBe('{"n":1}\n');
    streamed.value.abort();
  });
});

describe('AgentctlClient health', () => {
  it("refuses a health answer whose workspace identity is malformed, by the ready frame's rule", async () => {
    const { endpoint } = await agentctl((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"workspacePath":"/w","workspaceUri":"file:///w","repoSubpaths":["a",3]}');
    });
    expect(await new AgentctlClient(endpoint).health(5_000)).toEqual({ ok: false, error: 'agentctl health: repoSubpaths must be an array of strings' });
  });
});

describe('AgentctlClient.upload: a save streamed through', () => {
  /** A body whose chunks the test releases one at a time (`next`), or ends (`end`). */
  function heldBody() {
    const waiting: Array<(chunk: Buffer | undefined) => void> = [];
    let pulled: () => void = () => undefined;
    async function* body() {
      for (;;) {
        const chunk = await new Promise<Buffer | undefined>((resolve) => {
          waiting.push(resolve);
          pulled();
        });
        if (!chunk) return;
        yield chunk;
      }
    }
    /** Settles once the upload asks for the next chunk. */
    const asked = () => (waiting.length > 0 ? Promise.resolve() : new Promise<void>((resolve) => (pulled = resolve)));
    const give = (chunk: Buffer | undefined) => waiting.shift()?.(chunk);
    return { body: body(), asked, give };
  }

  const options = (limit = 100) => ({ contentType: 'application/octet-stream', limit, idleTimeoutMs: 5_000, complete: () => true });

  it('a slow upload outlives any whole-request timer: every chunk restarts the idle deadline', async () => {
    let received = 0;
    const { endpoint } = await agentctl((req, res) => {
      req.on('data', (c: Buffer) => (received += c.length));
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"version":"v"}'));
    });
    const clock = new ManualClock();
    const held = heldBody();
    const upload = new AgentctlClient(endpoint, clock).upload('PUT', '/api/v1/file?path=a', held.body, options());
    for (let i = 0; i < 4; i++) {
      await held.asked();
      // 4 s between chunks, 16 s in all: past the 5 s bound as a whole, never idle that long.
      clock.advance(4_000);
      held.give(Buffer.from('0123456789'));
    }
    await held.asked();
    held.give(undefined);
    const result = await upload;
    expect(result.ok && result.value.kind).toBe('answered');
    expect(received).toBe(40);
    expect(clock.pending).toBe(0);
  });

  it('a stalled upload is broken off after the idle deadline', async () => {
    const { endpoint } = await agentctl(() => undefined);
    const clock = new ManualClock();
    const held = heldBody();
    const upload = new AgentctlClient(endpoint, clock).upload('PUT', '/api/v1/file?path=a', held.body, options());
    await held.asked();
    held.give(Buffer.from('some'));
    await held.asked();
    clock.advance(5_000);
    const result = await upload;
    expect(!result.ok && result.error).toMatch(/^agentctl unreachable: .*progress/);
  });

  it('a body over the limit is broken off towards agentctl and reported as too large', async () => {
    let ended = false;
    let received = 0;
    const { endpoint } = await agentctl((req) => {
      req.on('data', (c: Buffer) => (received += c.length));
      req.on('end', () => (ended = true));
    });
    const clock = new ManualClock();
    const held = heldBody();
    const upload = new AgentctlClient(endpoint, clock).upload('PUT', '/api/v1/file?path=a', held.body, options(15));
    await held.asked();
    held.give(Buffer.from('0123456789'));
    await held.asked();
    held.give(Buffer.from('0123456789'));
    expect(await upload).toEqual({ ok: true, value: { kind: 'too_large', limit: 15 } });
    expect(ended).toBe(false);
    expect(received).toBeLessThanOrEqual(10);
  });
});

describe('AgentctlClient: nothing kept per task host once it is gone', () => {
  /** V8's full collection, exposed at run time for this measurement only. */
  function fullGc(): () => void {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  }

  /** One short-lived agentctl (a new port, as every started session's is): health, a search, a save, then gone. */
  async function oneTaskHost(): Promise<void> {
    const { endpoint } = await agentctl((req, res) => {
      req.resume();
      req.on('end', () =>
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"workspacePath":"/w","workspaceUri":"file:///w","repoSubpaths":[]}'),
      );
    });
    const client = new AgentctlClient(endpoint);
    expect((await client.health(5_000)).ok).toBe(true);
    const streamed = await client.open(TASK_HOST_PATHS.search);
    if (!streamed.ok) throw new Error(streamed.error);
    for await (const chunk of streamed.value.body) void chunk;
    const saved = await client.upload(
      'PUT',
      '/api/v1/file?path=a',
      (async function* () {
        yield Buffer.from('text');
      })(),
      { contentType: 'application/octet-stream', limit: 100, idleTimeoutMs: 5_000, complete: () => true },
    );
    expect(saved.ok && saved.value.kind).toBe('answered');
    // Gone as a stopped session's agentctl is (afterEach's second close just reports it closed).
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }

  it('a day of sessions on ever new ports leaves the heap where it was (no client kept per endpoint)', async () => {
    const gc = fullGc();
    // Warm-up: code compiled and caches filled by the first endpoints are not per-endpoint state.
    for (let i = 0; i < 10; i++) await oneTaskHost();
    // Three rounds: something else of the test process that happens to grow during one round
    // (the runner's own bookkeeping) shows in that round only; state kept per endpoint shows in all.
    const grownPerEndpoint: number[] = [];
    for (let round = 0; round < 3; round++) {
      gc();
      const before = process.memoryUsage().heapUsed;
      const endpoints = 40;
      for (let i = 0; i < endpoints; i++) await oneTaskHost();
      gc();
      grownPerEndpoint.push((process.memoryUsage().heapUsed - before) / endpoints);
    }
    // Node 20's fetch keeps a connection pool per origin for ever (about 30 KiB each, measured);
    // what is left per endpoint must be far below that.
    expect(Math.min(...grownPerEndpoint)).toBeLessThan(4 * 1024);
  });
});
