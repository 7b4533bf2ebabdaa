/**
 * Fault figures for the bench (never asserted in tests, never durations in tests): the backend's
 * peak RSS while a frozen tab's server floods 200k x 1 KiB notifications, the echo latency another
 * session sees meanwhile, and the backend's peak and settled RSS under a seeded fuzz of malformed
 * frames. The same scenarios are asserted as memory bounds in test/integration/faults-*.test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installFakeServer, writeScript } from '../test/support/fakeServer.js';
import { closingFrame, Prng, survivableFrame } from '../test/support/fuzzFrames.js';
import { MiB, RssSampler, rssBytes } from '../test/support/procStatus.js';
import { startStack, taskPath, type RunningStack } from '../test/support/stack.js';
import { summarize, table } from './stats.js';
import { WsLspClient } from './wsLspClient.js';
import { authHeaders } from '../test/support/access.js';

const FLOOD_COUNT = Number(process.env.BENCH_FLOOD ?? 200_000);
const FUZZ_FRAMES = Number(process.env.BENCH_FUZZ ?? 10_000);

export interface FaultFigures {
  flood: {
    count: number;
    baselineMiB: number;
    peakMiB: number;
    growthMiB: number;
    neighbourEchoMs: ReturnType<typeof summarize> & { max: number };
    quietEchoMs: ReturnType<typeof summarize> & { max: number };
  };
  fuzz: { frames: number; baselineMiB: number; peakMiB: number; settledMiB: number };
}

async function fakeSession(stack: RunningStack, dir: string, name: string, script: object, logFile?: string): Promise<string> {
  const workspace = join(dir, name);
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'Main.kt'), 'fun main() = println("hi")\n');
  const bin = join(dir, `${name}-bin`);
  installFakeServer(bin, 'kotlin-lsp');
  const task = await stack.createTask({
    title: name,
    workspace,
    env: { PATH: taskPath(bin), FAKE_LSP_SCRIPT: writeScript(dir, script), ...(logFile ? { FAKE_LSP_LOG: logFile } : {}) },
  });
  return (await stack.startSession(task.id)).id;
}

async function ready(stack: RunningStack, sessionId: string, lease?: string): Promise<{ client: WsLspClient; lease: string; resumed: boolean }> {
  const url = `${stack.url.replace('http', 'ws')}/lsp/${sessionId}?language=kotlin${lease ? `&lease=${lease}` : ''}`;
  const client = await WsLspClient.open(url, { ...authHeaders(), Origin: stack.url });
  const frame = await client.waitFor((m) => m.status === 'ready');
  if (frame.resumed) {
    client.send({ control: 'attachment-ready' });
    await client.waitFor((m) => m.status === 'synchronized');
  } else {
    await client.request('initialize', { processId: null, rootUri: null, capabilities: {} });
    client.send({ jsonrpc: '2.0', method: 'initialized', params: {} });
  }
  return { client, lease: frame.lease as string, resumed: frame.resumed as boolean };
}

export async function runFaultBench(): Promise<FaultFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'kandev-bench-faults-'));
  const stack = await startStack();
  try {
    const pid = stack.process.pid as number;
    const floodLog = join(dir, 'flooder.jsonl');
    const flooder = await fakeSession(
      stack,
      dir,
      'flooder',
      { rules: { 'kandev/startFlood': [{ flood: { method: 'kandev/noise', count: FLOOD_COUNT, bytes: 1024 } }] } },
      floodLog,
    );
    const neighbourSession = await fakeSession(stack, dir, 'neighbour', {});
    const neighbour = (await ready(stack, neighbourSession)).client;
    const tab = await ready(stack, flooder);
    // The same echo with nothing else going on, for comparison (the machine may be busy anyway).
    const quiet: number[] = [];
    for (let i = 0; i < 2_000; i++) {
      const start = performance.now();
      await neighbour.request('kandev/echo', {});
      quiet.push(performance.now() - start);
    }
    const baseline = rssBytes(pid) as number;
    const sampler = new RssSampler(pid);
    // The tab freezes (stops reading), then its server floods.
    tab.client.socket.pause();
    tab.client.send({ jsonrpc: '2.0', method: 'kandev/startFlood', params: {} });
    // Until the server's flood is drained (the frozen tab is detached by the write deadline, the
    // broker drains the detached lease), another session's echo round trips are measured. This
    // process only reads the neighbour meanwhile, so its own event loop does not skew the figure.
    const echoes: number[] = [];
    let drained = false;
    const poll = setInterval(() => {
      if (existsSync(floodLog) && readFileSync(floodLog, 'utf8').includes('"flooded"')) drained = true;
    }, 200);
    while (!drained) {
      const start = performance.now();
      await neighbour.request('kandev/echo', {});
      echoes.push(performance.now() - start);
    }
    clearInterval(poll);
    const floodPeak = sampler.stop();
    const back = await ready(stack, flooder, tab.lease);
    if (!back.resumed) throw new Error('the flooded lease did not survive');
    await back.client.close();
    tab.client.socket.terminate();

    const fuzzSession = await fakeSession(stack, dir, 'fuzz', {});
    const first = await ready(stack, fuzzSession);
    await first.client.close();
    const fuzzBaseline = rssBytes(pid) as number;
    const fuzzSampler = new RssSampler(pid);
    const rng = new Prng(0x5eed);
    let frames = 0;
    while (frames < FUZZ_FRAMES) {
      const conn = await ready(stack, fuzzSession, first.lease);
      for (let i = 0; i < 500 && frames < FUZZ_FRAMES; i++, frames++) {
        const frame = survivableFrame(rng);
        if (frame.kind === 'text') conn.client.socket.send(frame.text);
      }
      const bad = closingFrame(rng);
      if (bad.kind === 'text') conn.client.socket.send(bad.text);
      else conn.client.socket.send(bad.bytes, { binary: bad.kind === 'binary' });
      frames++;
      await conn.client.closed;
    }
    await (await ready(stack, fuzzSession, first.lease)).client.close();
    const fuzzPeak = fuzzSampler.stop();
    const settled = rssBytes(pid) as number;
    neighbour.socket.close();

    const mib = (bytes: number) => Number((bytes / MiB).toFixed(1));
    const figures: FaultFigures = {
      flood: {
        count: FLOOD_COUNT,
        baselineMiB: mib(baseline),
        peakMiB: mib(floodPeak),
        growthMiB: mib(floodPeak - baseline),
        neighbourEchoMs: { ...summarize(echoes), max: Math.max(...echoes) },
        quietEchoMs: { ...summarize(quiet), max: Math.max(...quiet) },
      },
      fuzz: { frames, baselineMiB: mib(fuzzBaseline), peakMiB: mib(fuzzPeak), settledMiB: mib(settled) },
    };
    console.log(`\nfaults: backend RSS (MiB) under a ${FLOOD_COUNT} x 1 KiB flood at a frozen tab, and under ${frames} malformed frames\n`);
    console.log(
      table(
        ['scenario', 'baseline', 'peak', 'growth / settled'],
        [
          ['flood at a frozen tab', figures.flood.baselineMiB, figures.flood.peakMiB, figures.flood.growthMiB],
          ['fuzz', figures.fuzz.baselineMiB, figures.fuzz.peakMiB, figures.fuzz.settledMiB],
        ],
      ),
    );
    const e = figures.flood.neighbourEchoMs;
    const q = figures.flood.quietEchoMs;
    console.log(`\nanother session's echo round trip (ms)\n`);
    console.log(
      table(
        ['when', 'samples', 'p50', 'p95', 'p99', 'max'],
        [
          ['quiet', quiet.length, q.p50, q.p95, q.p99, q.max],
          ['during the flood', echoes.length, e.p50, e.p95, e.p99, e.max],
        ],
      ),
    );
    console.log('');
    return figures;
  } finally {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
