/**
 * One rule for slow peers (docs/architecture.md section 3, "Bounds" and "Liveness"): a hop's 5 s write deadline
 * never ends a lease whose peer still answers (agentctl that stops reading its socket because its
 * server's stdin is full is slow, not dead), and the 30 s stdin cutoff is what ends a server that
 * stops reading, with its own reason: agentctl kills and reaps it and says why (`cause:
 * stdin_timeout` on server_exited), the lease restarts it like a crashed one and says why too.
 * The fake server stops reading its stdin on `kandev/stall` while the tab sends megabytes.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive, LeaseClient, readLog, serverPids } from './lease-support.js';
import { fakeTask, startFaultStack, type FaultStack, type FaultTask } from './faults-support.js';

/**
 * The two cases wait on the clock (an 8 s stall, the 30 s cutoff), so they run side by side, each
 * on a backend of its own: what one backend logs (a restart, an unresponsive peer) is then only
 * ever about its own case.
 */
let stack: FaultStack;
let hungStack: FaultStack;
let slow: FaultTask;
let hung: FaultTask;

beforeAll(async () => {
  [stack, hungStack] = await Promise.all([startFaultStack(), startFaultStack()]);
  // 8 s: well past the 5 s write deadline on both hops, well inside the 30 s stdin cutoff.
  slow = await fakeTask(stack, { rules: { 'kandev/stall': [{ pauseStdinMs: 8_000 }] } }, 'slow');
  // Much longer than the stdin cutoff: this server is hung as far as anyone can tell.
  const once = join(tmpdir(), `kandev-stall-once-${process.pid}-${Date.now()}`);
  hung = await fakeTask(hungStack, { rules: { 'kandev/stall': [{ once, actions: [{ pauseStdinMs: 600_000 }] }] } }, 'hung');
});

afterAll(async () => {
  await Promise.all([stack?.stop(), hungStack?.stop()]);
  slow?.remove();
  hung?.remove();
});

/** The tab sends 16 MiB the server does not read: its stdin fills, agentctl stops reading its socket, the backend's writes wait. */
function sendBulk(tab: LeaseClient, count = 256): void {
  const chunk = 'z'.repeat(64 * 1024);
  for (let i = 0; i < count; i++) tab.notify('kandev/bulk', { i, chunk });
}

describe.concurrent('faults: a server that stops reading its stdin', () => {
  it('for 8 s with 16 MiB queued: no write deadline ends the lease; the same server takes everything, in order', async () => {
    const tab = new LeaseClient(stack.url, slow.sessionId, 'kotlin');
    await tab.initialize();
    const [pid] = serverPids(slow.logFile);
    const logMark = stack.logs.length;
    tab.notify('kandev/stall', {});
    sendBulk(tab);
    // Answered after every bulk message (the server handles them in order), on the socket it has.
    expect(await tab.request('kandev/echo', {})).toMatchObject({ result: null });
    const bulk = readLog(slow.logFile)
      .filter((l) => l.message.method === 'kandev/bulk')
      .map((l) => l.message.params.i as number);
    expect(bulk).toEqual(Array.from({ length: 256 }, (_, i) => i));
    expect(tab.frames.filter((f) => f.status !== undefined && f.status !== 'ready')).toEqual([]);
    expect(serverPids(slow.logFile)).toEqual([pid]);
    const ended = stack.logs
      .slice(logMark)
      .filter((l) => ['lease_exit', 'lease_release', 'lease_restart', 'lease_detach', 'lsp_peer_unresponsive'].includes(l.event ?? ''));
    expect(ended).toEqual([]);
    await tab.leave();
  });

  it('past the 30 s stdin cutoff: agentctl ends the server (cause stdin_timeout), the lease restarts it and says why, never 4009', async () => {
    const tab = new LeaseClient(hungStack.url, hung.sessionId, 'kotlin');
    const { ready } = await tab.initialize();
    const [pid] = serverPids(hung.logFile);
    const logMark = hungStack.logs.length;
    tab.notify('kandev/stall', {});
    sendBulk(tab);
    const restarting = await Promise.race([tab.waitFor((f) => f.status === 'restarting'), tab.closed.then((close) => ({ closed: close.code }))]);
    expect(restarting).toMatchObject({ status: 'restarting', attempt: 1, cause: 'stdin_timeout' });
    expect(isAlive(pid as number)).toBe(false);
    // The new server (it reads again: the stall ran once) takes the lease on.
    expect(await tab.waitFor((f) => f.status === 'ready' && f.resumed === true)).toMatchObject({ lease: ready.lease });
    // The backend logged why before it started the new server; its stdout reaches this process on a
    // pipe of its own, which can trail the restarting frame, not the new server's ready frame.
    const restartLog = hungStack.logs.slice(logMark).find((l) => l.event === 'lease_restart');
    expect(restartLog).toMatchObject({ reason: 'server_stdin_timeout' });
    tab.control({ control: 'attachment-ready' });
    await tab.waitFor((f) => f.status === 'synchronized');
    expect(await tab.request('kandev/echo', {})).toMatchObject({ result: null });
    expect(tab.ws.readyState).toBe(tab.ws.OPEN);
    await tab.leave();
  });
});
