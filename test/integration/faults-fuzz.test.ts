/**
 * Fuzz (docs/architecture.md section 3): over 10,000 malformed frames, from a deterministic seed, over many
 * connections to the backend and to agentctl. Neither process crashes; a connection whose frame
 * the contract refuses ends with 1007, one where the contract answers errors (bad ids, deep
 * nesting, unknown response ids, cancel floods, a full pending table) stays up and answers; the
 * backend's RSS settles within 64 MiB of its baseline. Peak figures are printed for the bench.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BadInputCloseCode, MAX_PENDING_BROWSER_REQUESTS } from '@kandev/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentctl, taskPath as agentctlTaskPath, type RunningAgentctl } from '../../apps/agentctl/src/testing/agentctlProcess.js';
import { installFakeServer, writeScript } from '../support/fakeServer.js';
import { MiB, RssSampler, rssBytes } from '../support/procStatus.js';
import { LeaseClient } from './lease-support.js';
import { fakeTask, startFaultStack, type FaultStack, type FaultTask } from './faults-support.js';
import { closingFrame, Prng, survivableFrame, type FuzzFrame } from '../support/fuzzFrames.js';

const SEED = 0x5eed_2026;
const STAYING_CONNECTIONS = 8;
const FRAMES_PER_STAYING = 1_200;
const CLOSING_CONNECTIONS = 300;
const SETTLE_BOUND = 64 * MiB;

let stack: FaultStack;
let fuzzed: FaultTask;
let hung: FaultTask;
let sent = 0;

function send(ws: LeaseClient['ws'], frame: FuzzFrame): void {
  if (frame.kind === 'text') ws.send(frame.text);
  else ws.send(frame.bytes, { binary: frame.kind === 'binary' });
  sent++;
}

beforeAll(async () => {
  stack = await startFaultStack();
  fuzzed = await fakeTask(stack, {}, 'fuzz');
  hung = await fakeTask(stack, { rules: { 'kandev/hang': [{ delayMs: 600_000 }] } }, 'hung');
});

afterAll(async () => {
  await stack?.stop();
  fuzzed?.remove();
  hung?.remove();
});

describe('faults: fuzzing the browser stream', () => {
  it('10,000+ malformed frames: the backend stays up, refusals close 1007, answered errors keep connections, RSS settles', async () => {
    const rng = new Prng(SEED);
    const pid = stack.process.pid as number;
    const first = new LeaseClient(stack.url, fuzzed.sessionId, 'kotlin');
    const { ready } = await first.initialize();
    const lease = ready.lease as string;
    await first.leave();
    const baseline = rssBytes(pid) as number;
    const sampler = new RssSampler(pid);

    // Connections where every frame is one the contract answers or drops: they stay up.
    for (let c = 0; c < STAYING_CONNECTIONS; c++) {
      const tab = new LeaseClient(stack.url, fuzzed.sessionId, 'kotlin', lease);
      await tab.resume();
      for (let i = 0; i < FRAMES_PER_STAYING; i++) send(tab.ws, survivableFrame(rng));
      // Still up, still served, after all of it.
      expect(await tab.request('kandev/echo', { c })).toMatchObject({ result: null });
      await tab.leave();
    }

    // Connections that each end on one frame the contract refuses: closed 1007, the lease kept.
    const codes = new Map<number, number>();
    for (let c = 0; c < CLOSING_CONNECTIONS; c++) {
      const tab = new LeaseClient(stack.url, fuzzed.sessionId, 'kotlin', lease);
      await new Promise((resolve) => tab.ws.once('open', resolve));
      const warmup = rng.int(4);
      for (let i = 0; i < warmup; i++) send(tab.ws, survivableFrame(rng));
      send(tab.ws, closingFrame(rng));
      const { code } = await tab.closed;
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
    expect([...codes.keys()]).toEqual([BadInputCloseCode.InvalidPayload]);

    // The lease survived it all: a reattach resumes it and is served.
    const back = new LeaseClient(stack.url, fuzzed.sessionId, 'kotlin', lease);
    expect(await back.resume()).toMatchObject({ resumed: true, lease });
    expect(await back.request('kandev/echo', {})).toMatchObject({ result: null });
    await back.leave();

    const peak = sampler.stop();
    const settled = rssBytes(pid) as number;
    console.log(
      `[faults-fuzz] ${sent} malformed frames over ${STAYING_CONNECTIONS + CLOSING_CONNECTIONS} connections; backend RSS baseline ${(baseline / MiB).toFixed(1)} MiB, peak ${(peak / MiB).toFixed(1)} MiB, settled ${(settled / MiB).toFixed(1)} MiB`,
    );
    expect(sent).toBeGreaterThanOrEqual(10_000);
    expect(stack.process.exitCode).toBeNull();
    expect(settled - baseline).toBeLessThanOrEqual(SETTLE_BOUND);
  });

  it('300 pending requests to a hung server: the pending table is bounded, the excess answered at once, the connection stays up', async () => {
    const tab = new LeaseClient(stack.url, hung.sessionId, 'kotlin');
    await tab.initialize();
    tab.send({ jsonrpc: '2.0', id: 'hang', method: 'kandev/hang', params: {} });
    const ids = Array.from({ length: 300 }, (_, i) => i + 1_000);
    for (const id of ids) tab.send({ jsonrpc: '2.0', id, method: 'textDocument/hover', params: {} });
    // The table holds 256 (the hang included); the rest are refused at once, not after 30 s.
    const excess = 300 + 1 - MAX_PENDING_BROWSER_REQUESTS;
    const refusals = await Promise.all(ids.slice(-excess).map((id) => tab.waitFor((f) => f.id === id)));
    for (const refusal of refusals) expect(refusal.error).toBeDefined();
    expect(tab.frames.filter((f) => ids.includes(f.id as number))).toHaveLength(excess);
    // The connection is up: a notification still goes through and the socket is open.
    tab.notify('kandev/stillHere', {});
    expect(tab.ws.readyState).toBe(tab.ws.OPEN);
    await tab.leave();
    expect(stack.process.exitCode).toBeNull();
  });
});

describe('faults: fuzzing the task-host stream', () => {
  let agentctl: RunningAgentctl;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kandev-faults-fuzz-agentctl-'));
    const workspace = join(dir, 'workspace');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'Main.kt'), 'fun main() = println("hi")\n');
    const bin = join(dir, 'bin');
    installFakeServer(bin, 'kotlin-lsp');
    agentctl = await startAgentctl({
      workspace,
      env: { PATH: agentctlTaskPath(bin), HOME: dir, FAKE_LSP_SCRIPT: writeScript(dir, {}), FAKE_LSP_LOG: join(dir, 'server.jsonl') },
    });
  });

  afterAll(async () => {
    await agentctl?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('agentctl survives malformed frames: refused ones close 1007, forwarded ones keep the stream', async () => {
    const rng = new Prng(SEED + 1);
    const stream = agentctl.openStream('language=kotlin&autoInstall=false');
    await stream.status('ready');
    for (let i = 0; i < 1_000; i++) {
      const frame = survivableFrame(rng);
      if (frame.kind === 'text') stream.ws.send(frame.text);
    }
    expect(await stream.request('kandev/echo', {})).toMatchObject({ result: null });
    stream.close();
    for (let c = 0; c < 12; c++) {
      const bad = agentctl.openStream('language=kotlin&autoInstall=false');
      await bad.status('ready');
      const frame = closingFrame(rng);
      if (frame.kind === 'text') bad.ws.send(frame.text);
      else bad.ws.send(frame.bytes, { binary: frame.kind === 'binary' });
      expect((await bad.closed).code).toBe(BadInputCloseCode.InvalidPayload);
    }
    expect((await agentctl.api('/api/v1/health')).status).toBe(200);
    expect(agentctl.child.exitCode).toBeNull();
  });
});
