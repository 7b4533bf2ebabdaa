/**
 * Memory bounded by bytes (docs/architecture.md section 3, "Bounds"): a tab that stops reading while its server
 * floods 200k x 1 KiB notifications must not make the backend buffer the flood. Above the byte
 * high-watermark the backend stops reading the lease's upstream, agentctl stops reading the
 * server's stdout, and the flood waits in the server; the 5 s write deadline then detaches the
 * tab, the lease keeps its server, and the broker drains the rest without anyone attached.
 * agentctl's memory is measured beside the backend's: it is the hop that stops reading either way.
 * Durations are never asserted: latency of the other session goes to the bench (bench/faults.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, LeaseClient, readLog, serverPids } from './lease-support.js';
import { agentctlPidFor, fakeTask, startFaultStack, type FaultStack, type FaultTask } from './faults-support.js';
import { MiB, RssSampler, rssBytes } from '../support/procStatus.js';

const FLOOD = { method: 'kandev/noise', count: 200_000, bytes: 1024 };
/** The acceptance bound for the RSS growth of the backend, and of the session's agentctl, during the flood. */
const MAX_GROWTH = 32 * MiB;

let stack: FaultStack;
let flooder: FaultTask;
let neighbour: FaultTask;
let stalling: FaultTask;

beforeAll(async () => {
  stack = await startFaultStack();
  flooder = await fakeTask(stack, { rules: { 'kandev/startFlood': [{ flood: FLOOD }] } }, 'flooder');
  neighbour = await fakeTask(stack, {}, 'neighbour');
  stalling = await fakeTask(stack, { rules: { 'kandev/stall': [{ pauseStdinMs: 3_000 }] } }, 'stalling');
});

afterAll(async () => {
  await stack?.stop();
  flooder?.remove();
  neighbour?.remove();
  stalling?.remove();
});

describe('faults: a frozen tab under a notification flood', () => {
  it('backend RSS stays within 32 MiB, the tab is detached by the write deadline, the lease keeps its server, the other session is served', async () => {
    const other = new LeaseClient(stack.url, neighbour.sessionId, 'kotlin');
    await other.initialize();
    const tab = new LeaseClient(stack.url, flooder.sessionId, 'kotlin');
    const { ready } = await tab.initialize();
    const pid = stack.process.pid as number;
    // Settle what start-up allocated before taking the baseline.
    for (let i = 0; i < 20; i++) await other.request('kandev/echo', { i });
    const baseline = rssBytes(pid) as number;
    const sampler = new RssSampler(pid);
    const agentctl = agentctlPidFor(pid, flooder.workspace) as number;
    expect(agentctl).toBeGreaterThan(0);
    const agentctlBaseline = rssBytes(agentctl) as number;
    const agentctlSampler = new RssSampler(agentctl);

    // The tab freezes: its socket stops being read (no more frames, no pongs), then the flood starts.
    tab.ws.pause();
    const logMark = stack.logs.length;
    tab.notify('kandev/startFlood', {});
    const detached = stack.nextLog((l) => l.event === 'lease_detach', logMark);

    // The other session keeps being answered while the flood is held back.
    let answered = 0;
    let flowing = true;
    void detached.then(() => (flowing = false));
    while (flowing) {
      await other.request('kandev/echo', { n: answered });
      answered++;
    }
    expect((await detached).reason).toBe('write_timeout');
    expect(answered).toBeGreaterThan(0);
    const peakWhileFrozen = sampler.peak;

    // Detached, the lease's server is drained to the end of its flood (the broker drops what nobody
    // will read). The fake server logs when its last notification was taken from its stdout.
    const flooded = () => readLog(flooder.logFile).some((l) => (l.message as { flooded?: number }).flooded === FLOOD.count);
    expect(await eventually(flooded, 2_400)).toBe(true);
    await other.request('kandev/echo', { after: true });
    const peak = sampler.stop();
    const agentctlPeak = agentctlSampler.stop();

    // A reattach resumes the same server process.
    const back = new LeaseClient(stack.url, flooder.sessionId, 'kotlin', ready.lease as string);
    const resumed = await back.resume();
    expect(resumed).toMatchObject({ lease: ready.lease, resumed: true });
    expect(await back.request('kandev/echo', {})).toMatchObject({ result: null });
    expect(serverPids(flooder.logFile)).toHaveLength(1);

    console.log(
      `[faults-backpressure] backend RSS baseline ${(baseline / MiB).toFixed(1)} MiB, peak ${(peak / MiB).toFixed(1)} MiB, growth ${((peak - baseline) / MiB).toFixed(1)} MiB (until the detach ${((peakWhileFrozen - baseline) / MiB).toFixed(1)} MiB); neighbour answered ${answered} echoes meanwhile`,
    );
    console.log(
      `[faults-backpressure] agentctl RSS baseline ${(agentctlBaseline / MiB).toFixed(1)} MiB, peak ${(agentctlPeak / MiB).toFixed(1)} MiB, growth ${((agentctlPeak - agentctlBaseline) / MiB).toFixed(1)} MiB`,
    );
    expect(peak - baseline).toBeLessThanOrEqual(MAX_GROWTH);
    expect(agentctlPeak - agentctlBaseline).toBeLessThanOrEqual(MAX_GROWTH);
    other.ws.close();
    back.ws.close();
    tab.ws.terminate();
  });
});

describe('faults: a browser writing faster than its server reads', () => {
  it('the backend stops reading the browser above the watermark instead of queueing: RSS bounded, nothing lost, in order', async () => {
    const tab = new LeaseClient(stack.url, stalling.sessionId, 'kotlin');
    await tab.initialize();
    const pid = stack.process.pid as number;
    await tab.request('kandev/echo', {});
    const baseline = rssBytes(pid) as number;
    const sampler = new RssSampler(pid);
    const agentctl = agentctlPidFor(pid, stalling.workspace) as number;
    expect(agentctl).toBeGreaterThan(0);
    const agentctlBaseline = rssBytes(agentctl) as number;
    const agentctlSampler = new RssSampler(agentctl);
    // The server stops reading its stdin for a while (shorter than the 5 s write deadline) while
    // the tab sends 50 MiB (800 x 64 KiB): agentctl stops reading its socket, the backend stops reading the tab.
    tab.notify('kandev/stall', {});
    const chunk = 'y'.repeat(64 * 1024);
    const COUNT = 800;
    for (let i = 0; i < COUNT; i++) tab.notify('kandev/bulk', { i, chunk });
    // The server handles messages in order: this answer comes after every bulk message.
    expect(await tab.request('kandev/echo', {})).toMatchObject({ result: null });
    const peak = sampler.stop();
    const agentctlPeak = agentctlSampler.stop();
    const bulk = readLog(stalling.logFile)
      .filter((l) => l.message.method === 'kandev/bulk')
      .map((l) => l.message.params.i as number);
    expect(bulk).toEqual(Array.from({ length: COUNT }, (_, i) => i));
    console.log(`[faults-backpressure] browser -> server 50 MiB against a stalled stdin: backend RSS growth ${((peak - baseline) / MiB).toFixed(1)} MiB`);
    console.log(`[faults-backpressure] the same 50 MiB: agentctl RSS growth ${((agentctlPeak - agentctlBaseline) / MiB).toFixed(1)} MiB`);
    expect(peak - baseline).toBeLessThanOrEqual(MAX_GROWTH);
    expect(agentctlPeak - agentctlBaseline).toBeLessThanOrEqual(MAX_GROWTH);
    await tab.leave();
  });
});
