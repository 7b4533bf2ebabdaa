/**
 * Benchmarks (DESIGN section 8), run on demand with `npm run bench`, never in the test suite.
 * One run compares, side by side:
 *   - request latency and pipelined throughput: direct stdio vs a plain WebSocket pass-through
 *     proxy vs the real path (browser socket -> backend gateway + lease broker -> agentctl bridge);
 *   - reattach-to-ready of a retained lease vs a cold start (launch + initialize);
 *   - backend memory per lease.
 * The server is the fake language server with a canned 1 KiB hover, so the numbers measure the
 * transport and not a language server's own work. Results also go to bench/results/<time>.json.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installFakeServer, writeScript } from '../test/support/fakeServer.js';
import { authHeaders } from '../test/support/access.js';
import { copyDemoWorkspace, startStack, taskPath } from '../test/support/stack.js';
import { StdioLspClient } from '../test/support/stdioClient.js';
import { startPassThroughProxy } from './passThroughProxy.js';
import { summarize, table } from './stats.js';
import { WsLspClient } from './wsLspClient.js';

const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 500);
const PIPELINED = Number(process.env.BENCH_PIPELINED ?? 2000);
const REATTACH_ROUNDS = Number(process.env.BENCH_REATTACH ?? 10);
const LEASES = Number(process.env.BENCH_LEASES ?? 6);

const dir = mkdtempSync(join(tmpdir(), 'kandev-bench-'));
const bin = join(dir, 'bin');
const shim = installFakeServer(bin, 'kotlin-lsp');
const script = writeScript(dir, {
  capabilities: { hoverProvider: true },
  rules: { 'textDocument/hover': [{ respond: { contents: { kind: 'markdown', value: 'x'.repeat(1024) } } }] },
});
const serverEnv = { ...process.env, FAKE_LSP_SCRIPT: script };
const hoverParams = { textDocument: { uri: 'file:///w/a.kt' }, position: { line: 0, character: 0 } };

interface Requester { request(method: string, params: unknown): Promise<Record<string, any>> }

async function measure(client: Requester): Promise<{ latency: ReturnType<typeof summarize>; throughput: number }> {
  for (let i = 0; i < 50; i++) await client.request('textDocument/hover', hoverParams); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const start = performance.now();
    await client.request('textDocument/hover', hoverParams);
    samples.push(performance.now() - start);
  }
  const start = performance.now();
  await Promise.all(Array.from({ length: PIPELINED }, () => client.request('textDocument/hover', hoverParams)));
  const throughput = PIPELINED / ((performance.now() - start) / 1000);
  return { latency: summarize(samples), throughput };
}

async function initialize(client: Requester & { send?: (m: Record<string, unknown>) => void; notify?: (m: string, p: unknown) => void }): Promise<void> {
  await client.request('initialize', { processId: null, rootUri: null, capabilities: {} });
  if (client.notify) client.notify('initialized', {});
  else client.send?.({ jsonrpc: '2.0', method: 'initialized', params: {} });
}

function rssKiB(pid: number): number {
  const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? NaN);
}

async function main(): Promise<void> {
  const results: Record<string, unknown> = { at: new Date().toISOString(), sequential: SEQUENTIAL, pipelined: PIPELINED };

  const direct = new StdioLspClient(shim, [], { env: serverEnv });
  await initialize(direct);
  const directResult = await measure(direct);
  direct.child.kill();

  const proxy = await startPassThroughProxy(shim, [], serverEnv);
  const proxied = await WsLspClient.open(proxy.url);
  await initialize(proxied);
  const proxyResult = await measure(proxied);
  await proxied.close();
  await proxy.close();

  const stack = await startStack();
  try {
    const task = await stack.createTask({ title: 'bench', workspace: copyDemoWorkspace(), env: { PATH: taskPath(bin), FAKE_LSP_SCRIPT: script } });
    const session = await stack.startSession(task.id);
    // Cold starts run in a session of their own: a connection without a hint claims the newest
    // detached lease of its session, and that must not be the one the reattach rounds keep.
    const coldSession = await stack.startSession(task.id);
    const lspUrl = (sessionId: string, lease?: string) => `${stack.url.replace('http', 'ws')}/lsp/${sessionId}?language=kotlin${lease ? `&lease=${lease}` : ''}`;
    const headers = { Origin: stack.url, ...authHeaders() };

    const openReady = async (lease?: string, sessionId = session.id) => {
      const client = await WsLspClient.open(lspUrl(sessionId, lease), headers);
      const ready = await client.waitFor((m) => m.status === 'ready');
      return { client, ready };
    };

    const cold: number[] = [];
    const full = await (async () => {
      const start = performance.now();
      const { client } = await openReady();
      await initialize(client);
      cold.push(performance.now() - start);
      return client;
    })();
    const fullResult = await measure(full);
    const firstReady = full.received.find((m) => m.status === 'ready') as { lease: string };
    await full.close();

    const reattach: number[] = [];
    let lease = firstReady.lease;
    let resumedCount = 0;
    for (let i = 0; i < REATTACH_ROUNDS; i++) {
      const start = performance.now();
      const { client, ready } = await openReady(lease);
      if (ready.resumed) {
        resumedCount++;
        client.send({ control: 'attachment-ready' });
        await client.waitFor((m) => m.status === 'synchronized');
      } else {
        await initialize(client);
      }
      reattach.push(performance.now() - start);
      lease = ready.lease;
      await client.close();
      // A cold start for comparison: a new lease, launched and initialized from nothing.
      const coldStart = performance.now();
      const fresh = await openReady(undefined, coldSession.id);
      await initialize(fresh.client);
      cold.push(performance.now() - coldStart);
      fresh.client.send({ control: 'release', reason: 'stop' });
      await fresh.client.closed;
    }

    const backendPid = stack.process.pid as number;
    const before = rssKiB(backendPid);
    const held: WsLspClient[] = [];
    for (let i = 0; i < LEASES; i++) {
      // Each lease in a session of its own, so none claims another's detached lease.
      const { client } = await openReady(undefined, (await stack.startSession(task.id)).id);
      await initialize(client);
      await client.request('textDocument/hover', hoverParams);
      held.push(client);
    }
    const after = rssKiB(backendPid);
    for (const client of held) await client.close();

    const rows = [
      ['direct stdio', directResult.latency.p50, directResult.latency.p95, directResult.latency.p99, directResult.throughput],
      ['plain WebSocket proxy', proxyResult.latency.p50, proxyResult.latency.p95, proxyResult.latency.p99, proxyResult.throughput],
      ['gateway + broker + bridge', fullResult.latency.p50, fullResult.latency.p95, fullResult.latency.p99, fullResult.throughput],
    ];
    console.log(`\nhover round trip (ms) over ${SEQUENTIAL} sequential requests, and requests/s over ${PIPELINED} pipelined\n`);
    console.log(table(['path', 'p50', 'p95', 'p99', 'req/s'], rows));
    const reattachSummary = summarize(reattach);
    const coldSummary = summarize(cold);
    console.log(`\nready after connect (ms), ${REATTACH_ROUNDS} rounds; ${resumedCount} of ${REATTACH_ROUNDS} reattaches resumed a retained lease\n`);
    console.log(table(['start', 'p50', 'p95', 'mean'], [
      ['reattach to retained lease', reattachSummary.p50, reattachSummary.p95, reattachSummary.mean],
      ['cold start (launch + initialize)', coldSummary.p50, coldSummary.p95, coldSummary.mean],
    ]));
    console.log(`\nbackend memory: ${before} KiB before, ${after} KiB with ${LEASES} more leases: ${((after - before) / LEASES).toFixed(0)} KiB per lease\n`);
    Object.assign(results, { direct: directResult, proxy: proxyResult, full: fullResult, reattach: reattachSummary, cold: coldSummary, resumedCount,
      memory: { beforeKiB: before, afterKiB: after, leases: LEASES } });
  } finally {
    await stack.stop();
  }
  const out = join(process.cwd(), 'bench/results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `${Date.now()}.json`), JSON.stringify(results, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
