import { describe, expect, it } from 'vitest';
import { closeCodeLabel, createBackendMetrics } from './backendMetrics.js';
import { registerLeaseMetrics } from './leaseMetrics.js';
import type { BrokerMetrics } from '../lsp/broker/index.js';

const sources = { runningSessions: () => 2, activeLspConnections: () => 1 };

function brokerMetrics(released: Partial<BrokerMetrics['releasedTotal']> = {}): BrokerMetrics {
  return {
    maxLeases: 8,
    leases: 3,
    active: 2,
    detached: 1,
    agentLeases: 0,
    releasing: 0,
    createdTotal: 5,
    reattachedTotal: 1,
    evictedTotal: 0,
    refusedAtCapacityTotal: 4,
    releasedTotal: { stop: 1, shutdown: 0, ...released } as BrokerMetrics['releasedTotal'],
  };
}

describe('backend metrics', () => {
  it('keeps the existing series names and shapes: gauges and counters read at scrape time', async () => {
    const metrics = createBackendMetrics(sources);
    let read = brokerMetrics();
    registerLeaseMetrics(metrics.registry, () => read);
    const text = await metrics.registry.metrics();
    expect(text).toContain('# TYPE kandev_sessions_running gauge\nkandev_sessions_running 2\n');
    expect(text).toContain('kandev_lsp_connections_active 1\n');
    // An unlabelled counter is there before its first event; a labelled one has no series yet.
    expect(text).toContain('# TYPE kandev_lsp_connections_opened_total counter\nkandev_lsp_connections_opened_total 0\n');
    expect(text).not.toMatch(/^kandev_lsp_connections_closed_total\{/m);
    expect(text).toContain('kandev_lsp_lease_slots 8\n');
    expect(text).toContain('kandev_lsp_leases_refused_total 4\n');
    expect(text).toContain('kandev_lsp_leases_released_total{reason="stop"} 1\nkandev_lsp_leases_released_total{reason="shutdown"} 0\n');
    // A later scrape reads the broker again: counts are the broker's, never added up twice.
    read = brokerMetrics({ stop: 3 });
    const again = await metrics.registry.metrics();
    expect(again).toContain('kandev_lsp_leases_released_total{reason="stop"} 3\n');
    expect(again).toContain('kandev_lsp_leases_created_total 5\n');
  });

  it('counts closes by a closed set of code labels', async () => {
    const metrics = createBackendMetrics(sources);
    metrics.lspOpened.inc();
    for (const code of [4005, 4005, 1006, 1011, 3999]) metrics.lspClosed.inc({ code: closeCodeLabel(code) });
    const text = await metrics.registry.metrics();
    expect(text).toContain('kandev_lsp_connections_opened_total 1\n');
    expect(text).toContain('kandev_lsp_connections_closed_total{code="4005"} 2\n');
    expect(text).toContain('kandev_lsp_connections_closed_total{code="1006"} 1\n');
    expect(text).toContain('kandev_lsp_connections_closed_total{code="1011"} 1\n');
    expect(text).toContain('kandev_lsp_connections_closed_total{code="other"} 1\n');
  });

  it('has histograms of the relay added latency by direction, server starts and installs by outcome', async () => {
    const metrics = createBackendMetrics(sources);
    metrics.relayed.to_server(0.03);
    metrics.relayed.to_server(0.2);
    metrics.relayed.to_browser(40);
    metrics.serverStarted(1_500);
    metrics.installFinished(45_000, true);
    metrics.installFinished(3_000, false);
    const text = await metrics.registry.metrics();
    expect(text).toContain('# TYPE kandev_lsp_relay_added_seconds histogram\n');
    expect(text).toContain('kandev_lsp_relay_added_seconds_bucket{le="0.00005",direction="to_server"} 1\n');
    expect(text).toContain('kandev_lsp_relay_added_seconds_bucket{le="0.00025",direction="to_server"} 2\n');
    expect(text).toContain('kandev_lsp_relay_added_seconds_count{direction="to_server"} 2\n');
    expect(text).toContain('kandev_lsp_relay_added_seconds_bucket{le="0.025",direction="to_browser"} 0\n');
    expect(text).toContain('kandev_lsp_relay_added_seconds_bucket{le="0.1",direction="to_browser"} 1\n');
    expect(text).toContain('kandev_lsp_server_start_seconds_bucket{le="2.5"} 1\n');
    expect(text).toContain('kandev_lsp_server_start_seconds_sum 1.5\n');
    expect(text).toContain('kandev_lsp_server_install_seconds_count{outcome="installed"} 1\n');
    expect(text).toContain('kandev_lsp_server_install_seconds_sum{outcome="failed"} 3\n');
  });

  it('keeps two backends in one process apart (no global registry)', async () => {
    const one = createBackendMetrics(sources);
    const two = createBackendMetrics(sources);
    one.lspOpened.inc();
    expect(await two.registry.metrics()).toContain('kandev_lsp_connections_opened_total 0\n');
  });
});
