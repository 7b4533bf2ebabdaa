import type { Registry } from 'prom-client';
import type { BrokerMetrics } from '../lsp/broker/index.js';
import { scrapedCounter, scrapedGauge, scrapedLabelledCounter } from './scraped.js';

/**
 * The lease broker's gauges and counters on /metrics. The only label is the
 * end reason, a closed set: never a task, session, lease, user or language id.
 */
export function registerLeaseMetrics(registry: Registry, read: () => BrokerMetrics): void {
  scrapedGauge(registry, 'kandev_lsp_lease_slots', 'Lease capacity (KANDEV_LSP_MAX_CONNECTIONS).', () => read().maxLeases);
  scrapedGauge(registry, 'kandev_lsp_leases', 'Leases holding a slot, attached or detached.', () => read().leases);
  scrapedGauge(registry, 'kandev_lsp_leases_active', 'Leases with a browser attached.', () => read().active);
  scrapedGauge(registry, 'kandev_lsp_leases_detached', 'Leases whose server runs on with no browser attached.', () => read().detached);
  scrapedGauge(registry, 'kandev_lsp_agent_leases', "Leases of agents' MCP clients (counted in kandev_lsp_leases too).", () => read().agentLeases);
  scrapedGauge(registry, 'kandev_lsp_leases_releasing', 'Ended leases still shutting their server down.', () => read().releasing);
  scrapedCounter(registry, 'kandev_lsp_leases_created_total', 'Leases created (each one language-server process).', () => read().createdTotal);
  scrapedCounter(registry, 'kandev_lsp_leases_reattached_total', 'Browser connections that resumed a retained lease.', () => read().reattachedTotal);
  scrapedCounter(registry, 'kandev_lsp_leases_evicted_total', 'Detached leases released to admit a new one.', () => read().evictedTotal);
  scrapedCounter(
    registry,
    'kandev_lsp_leases_refused_total',
    'Browser connections refused with 4005 (every lease attached).',
    () => read().refusedAtCapacityTotal,
  );
  scrapedLabelledCounter(registry, 'kandev_lsp_leases_released_total', 'Leases ended, by reason.', 'reason', () => read().releasedTotal);
}
