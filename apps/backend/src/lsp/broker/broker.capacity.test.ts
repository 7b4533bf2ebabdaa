import { describe, expect, it } from 'vitest';
import { MAX_RETAINED_LEASE_STATE_BYTES } from '@kandev/protocol';
import { BrokerHarness, browserCloses, logs, notif, ofType, openedLease, req, res, toServer } from './testkit.js';
import { END_REASONS, LOG_EVENTS, LOG_REASONS, type Effect, type JsonRpcMessage } from './types.js';

const HOUR = 60 * 60 * 1000;

function slotReleases(effects: readonly Effect[], leaseId: string): number {
  return ofType(effects, 'releaseSlot').filter((e) => e.leaseId === leaseId).length;
}

describe('capacity and admission', () => {
  it('S26 an unsupported executor is closed 4004 before anything starts', () => {
    const h = new BrokerHarness();
    const fx = h.connect('t', { executorSupported: false });
    expect(fx).toEqual([{ type: 'closeBrowser', attachmentId: 't', code: 4004 }]);
    expect(h.broker.metrics()).toMatchObject({ leases: 0, createdTotal: 0 });
  });

  it('C08 at capacity the oldest detached lease is released and the new server admitted', () => {
    const h = new BrokerHarness({ maxLeases: 2 });
    const older = h.readyLease('a', { session: 's1' });
    const newer = h.readyLease('b', { session: 's2' });
    h.closeBrowser('a');
    h.now += 1000;
    h.closeBrowser('b');
    const fx = h.connect('c', { session: 's3' });
    expect(logs(fx)).toEqual(['eviction/capacity', 'create/new_lease', 'attach/new_lease']);
    // the victim's slot is released and its shutdown begins before the new task host is opened
    const types = fx.map((e) => e.type);
    expect(types.indexOf('releaseSlot')).toBeLessThan(types.indexOf('openUpstream'));
    expect(ofType(fx, 'releaseSlot')).toEqual([{ type: 'releaseSlot', leaseId: older }]);
    expect(toServer(fx, older).map((m) => m.method)).toEqual(['shutdown']);
    expect(toServer(fx, newer)).toEqual([]);
    expect(h.broker.lease(newer)).toMatchObject({ detachedAt: expect.any(Number), phase: 'running' });
    expect(h.broker.metrics()).toMatchObject({ leases: 2, active: 1, detached: 1, releasing: 1, evictedTotal: 1 });
    // with every lease attached, the next editor gets 4005
    h.connect('b2', { session: 's2', hint: newer });
    expect(h.connect('d', { session: 's4' })).toEqual([{ type: 'closeBrowser', attachmentId: 'd', code: 4005 }]);
  });

  it("an agent's new lease never evicts a person's detached lease, only another agent's, and neither claims the other's", () => {
    const h = new BrokerHarness({ maxLeases: 2 });
    const person = h.readyLease('p', { session: 's1' });
    h.closeBrowser('p');
    const agent = h.readyLease('a', { session: 's1', agent: true });
    // the agent's second language at capacity: the person's detached lease stays, the agent is refused
    expect(h.connect('a2', { session: 's1', language: 'python', agent: true })).toEqual([{ type: 'closeBrowser', attachmentId: 'a2', code: 4005 }]);
    expect(h.broker.lease(person)).toMatchObject({ ownerKind: 'person', phase: 'running' });
    // an agent lease that is detached may give way to another agent
    h.closeBrowser('a');
    const fx = h.connect('a3', { session: 's1', language: 'python', agent: true });
    expect(ofType(fx, 'releaseSlot')).toEqual([{ type: 'releaseSlot', leaseId: agent }]);
    // a person reconnecting resumes their own lease, never an agent's
    const back = h.connect('p2', { session: 's1' });
    expect(logs(back)).toEqual(['reattach/recent_detached']);
    expect(h.broker.leaseOf('p2')).toBe(person);
    expect(h.broker.metrics()).toMatchObject({ leases: 2, agentLeases: 1 });
  });

  it('S27 at capacity with every lease attached the request closes 4005 before any task host start; reattaching stays admissible', () => {
    const h = new BrokerHarness({ maxLeases: 2 });
    h.readyLease('a', { session: 's1' });
    const detached = h.readyLease('b', { session: 's2' });
    h.closeBrowser('b');
    // the reattaching editor costs no slot: no eviction, no new task host
    const back = h.connect('b2', { session: 's2', hint: detached });
    expect(ofType(back, 'openUpstream')).toEqual([]);
    expect(ofType(back, 'releaseSlot')).toEqual([]);
    expect(logs(back)).toEqual(['reattach/lease_hint']);
    // now all attached: the decision is a bare 4005, nothing started, resumed or logged as created
    const refused = h.connect('c', { session: 's3' });
    expect(refused).toEqual([{ type: 'closeBrowser', attachmentId: 'c', code: 4005 }]);
    expect(h.broker.metrics()).toMatchObject({ leases: 2, active: 2, refusedAtCapacityTotal: 1, createdTotal: 2 });
  });

  it('exact capacity accounting: release, expiry, eviction, server exit, session stop and shutdown each release the slot exactly once', () => {
    const h = new BrokerHarness({ maxLeases: 2 });
    const created: string[] = [];
    const ready = (att: string, session: string) => {
      const id = h.readyLease(att, { session });
      created.push(id);
      return id;
    };

    // stop, acknowledged; a duplicate close afterwards finds nothing
    const stop = ready('a1', 's1');
    h.control('a1', { control: 'release', reason: 'stop' });
    h.advance(5_000); // shutdown wait runs out
    h.upstreamClosed(stop, 1000);
    h.upstreamClosed(stop, 1000);
    // editor idle, with the session stopping in the middle of the handshake
    const idle = ready('a2', 's2');
    h.control('a2', { control: 'release', reason: 'editor_idle' });
    expect(browserCloses(h.handle({ type: 'sessionStopped', sessionId: 's2' }))).toEqual([{ attachmentId: 'a2', code: 4002 }]);
    // expiry, with agentctl never confirming the close (reap timeout)
    const expiry = ready('a3', 's3');
    h.closeBrowser('a3');
    h.advance(HOUR + 5_000 + 10_000);
    // eviction
    const evicted = ready('a4', 's4');
    h.closeBrowser('a4');
    // launched, not yet initialized: a crash is not restarted (broker.restart.test.ts), the lease ends
    const exitLease = openedLease(h.connect('a5', { session: 's5' }));
    created.push(exitLease);
    h.hostReady(exitLease);
    const evicting = h.connect('a6', { session: 's6' });
    const sessionLease = openedLease(evicting);
    created.push(sessionLease);
    h.upstreamClosed(evicted, 1000);
    // server exit
    expect(browserCloses(h.upstreamClosed(exitLease, 4006))).toEqual([{ attachmentId: 'a5', code: 4006 }]);
    // start failure before ready passes agentctl's code through
    const startFailed = openedLease(h.connect('a7', { session: 's7' }));
    created.push(startFailed);
    h.hostStatus(startFailed, { status: 'installing', language: 'go' });
    expect(browserCloses(h.upstreamClosed(startFailed, 4007))).toEqual([{ attachmentId: 'a7', code: 4007 }]);
    // agentctl unreachable, then a transport that died while the server may still run
    const unreachable = openedLease(h.connect('a8', { session: 's8' }));
    created.push(unreachable);
    expect(browserCloses(h.upstreamClosed(unreachable, 4002))).toEqual([{ attachmentId: 'a8', code: 4002 }]);
    const lost = ready('a9', 's9');
    h.closeBrowser('a6');
    expect(browserCloses(h.upstreamClosed(lost, 1006))).toEqual([{ attachmentId: 'a9', code: 4009 }]);
    // session stop of a detached lease
    const stopped = h.handle({ type: 'sessionStopped', sessionId: 's6' });
    expect(ofType(stopped, 'closeUpstream')).toEqual([{ type: 'closeUpstream', leaseId: sessionLease, code: 1001 }]);
    // backend shutdown
    const last = ready('a10', 's10');
    const down = h.handle({ type: 'shutdown' });
    expect(browserCloses(down)).toEqual([{ attachmentId: 'a10', code: 1001 }]);
    expect(ofType(down, 'closeUpstream')).toEqual([{ type: 'closeUpstream', leaseId: last, code: 1001 }]);

    // late terminal events for every lease change nothing
    for (const id of created) {
      h.upstreamClosed(id, 4006);
      h.handle({ type: 'sessionStopped', sessionId: 's1' });
    }
    h.handle({ type: 'shutdown' });
    h.advance(2 * HOUR);

    for (const id of created) expect(slotReleases(h.all, id), id).toBe(1);
    const m = h.broker.metrics();
    expect(m.createdTotal).toBe(created.length);
    expect(m.releasedTotal).toEqual({
      stop: 1,
      editor_idle: 1,
      expiry: 1,
      eviction: 1,
      server_exit: 1,
      server_stdin_timeout: 0,
      start_failed: 1,
      task_host_unavailable: 1,
      upstream_lost: 1,
      state_limit: 0,
      session_stopped: 1,
      shutdown: 1,
      trust_changed: 0,
    });
    expect(Object.values(m.releasedTotal).reduce((a, b) => a + b, 0)).toBe(created.length);
    expect(m).toMatchObject({ leases: 0, active: 0, detached: 0, releasing: 0 });
    expect(h.armedTimers().size).toBe(0);
    expect(h.broker.armedTimers).toBe(0);
    expect([stop, idle, expiry].every((id) => h.broker.lease(id) === undefined)).toBe(true);
    // after shutdown nothing is admitted
    expect(h.connect('late')).toEqual([{ type: 'closeBrowser', attachmentId: 'late', code: 1001 }]);
  });

  it('logs use the closed event and reason sets and carry no ids', () => {
    const h = new BrokerHarness({ maxLeases: 1 });
    const lease = h.readyLease('a');
    h.closeBrowser('a');
    h.connect('b', { hint: lease });
    h.control('b', { control: 'release', reason: 'stop' });
    h.upstreamClosed(lease, 1000);
    h.readyLease('c');
    h.upstreamClosed(h.broker.leaseOf('c')!, 4006);
    const entries = ofType(h.all, 'log');
    expect(entries.length).toBeGreaterThan(5);
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual(['event', 'language', 'reason', 'type']);
      expect(LOG_EVENTS).toContain(entry.event);
      expect(LOG_REASONS).toContain(entry.reason);
    }
    expect(END_REASONS.every((r) => (LOG_REASONS as readonly string[]).includes(r))).toBe(true);
  });

  it('a lease whose retained state would exceed 4 MiB is released at detach instead of being kept', () => {
    const h = new BrokerHarness();
    const leaseId = openedLease(h.connect('a'));
    h.hostReady(leaseId);
    const init = toServer(h.fromBrowser('a', req(1, 'initialize', {})))[0] as JsonRpcMessage;
    const huge = { capabilities: {}, blob: 'x'.repeat(MAX_RETAINED_LEASE_STATE_BYTES) };
    h.fromServer(leaseId, res(init.id as number, huge));
    h.fromBrowser('a', notif('initialized', {}));
    const fx = h.closeBrowser('a');
    expect(logs(fx)).toEqual(['detach/browser_closed', 'release/state_limit']);
    expect(slotReleases(fx, leaseId)).toBe(1);
    expect(openedLease(h.connect('b', { hint: leaseId }))).not.toBe(leaseId);
  });
});
