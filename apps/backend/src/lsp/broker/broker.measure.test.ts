import { describe, expect, it } from 'vitest';
import { BrokerHarness, ofType, openedLease } from './testkit.js';

// The broker times a server's start and an install by its own clock (the `now` of each event), so
// these durations are exact under the harness's fake clock.
describe('start and install timings for /metrics', () => {
  it('times a start from the lease opening to ready, once', () => {
    const h = new BrokerHarness();
    const lease = openedLease(h.connect('tab'));
    h.advance(1_250);
    expect(ofType(h.hostReady(lease), 'measure')).toEqual([{ type: 'measure', measure: 'server_start', ms: 1_250, ok: true }]);
    expect(ofType(h.hostReady(lease), 'measure')).toEqual([]);
  });

  it('times an install from installing to installed, and the start from the end of the install', () => {
    const h = new BrokerHarness();
    const lease = openedLease(h.connect('tab'));
    h.advance(100);
    expect(ofType(h.hostStatus(lease, { status: 'installing', language: 'go' }), 'measure')).toEqual([]);
    h.advance(20_000);
    // A repeated installing frame does not restart the install's clock.
    h.hostStatus(lease, { status: 'installing', language: 'go' });
    h.advance(10_000);
    expect(ofType(h.hostStatus(lease, { status: 'installed', language: 'go' }), 'measure')).toEqual([
      { type: 'measure', measure: 'install', ms: 30_000, ok: true },
    ]);
    h.advance(800);
    expect(ofType(h.hostReady(lease), 'measure')).toEqual([{ type: 'measure', measure: 'server_start', ms: 800, ok: true }]);
  });

  it('times a failed install as failed, and no start', () => {
    const h = new BrokerHarness();
    const lease = openedLease(h.connect('tab'));
    h.hostStatus(lease, { status: 'installing', language: 'go' });
    h.advance(5_000);
    expect(ofType(h.hostStatus(lease, { status: 'install_failed', language: 'go', error: 'offline' }), 'measure')).toEqual([
      { type: 'measure', measure: 'install', ms: 5_000, ok: false },
    ]);
    expect(ofType(h.upstreamClosed(lease, 4003), 'measure')).toEqual([]);
  });

  it('an install end without its start is not timed', () => {
    const h = new BrokerHarness();
    const lease = openedLease(h.connect('tab'));
    expect(ofType(h.hostStatus(lease, { status: 'installed', language: 'go' }), 'measure')).toEqual([]);
  });
});
