import type { BrokerMetrics } from '../lsp/broker/index.js';
import type { MetricsRegistry } from './registry.js';

/**
 * The lease broker's gauges and counters on /metrics (DESIGN section 4). The only label is the
 * end reason, a closed set: never a task, session, lease, user or language id.
 */
export function registerLeaseMetrics(registry: MetricsRegistry, read: () => BrokerMetrics): void {
  registry.gauge('kandev_lsp_lease_slots', 'Lease capacity (KANDEV_LSP_MAX_CONNECTIONS).', () => read().maxLeases);
  registry.gauge('kandev_lsp_leases', 'Leases holding a slot, attached or detached.', () => read().leases);
  registry.gauge('kandev_lsp_leases_active', 'Leases with a browser attached.', () => read().active);
  registry.gauge('kandev_lsp_leases_detached', 'Leases whose server runs on with no browser attached.', () => read().detached);
  registry.gauge('kandev_lsp_leases_releasing', 'Ended leases still shutting their server down.', () => read().releasing);
  registry.observedCounter('kandev_lsp_leases_created_total', 'Leases created (each one language-server process).', () => read().createdTotal);
  registry.observedCounter('kandev_lsp_leases_reattached_total', 'Browser connections that resumed a retained lease.', () => read().reattachedTotal);
  registry.observedCounter('kandev_lsp_leases_evicted_total', 'Detached leases released to admit a new one.', () => read().evictedTotal);
  registry.observedCounter(
    'kandev_lsp_leases_refused_total',
    'Browser connections refused with 4005 (every lease attached).',
    () => read().refusedAtCapacityTotal,
  );
  registry.observedCounter('kandev_lsp_leases_released_total', 'Leases ended, by reason.', () => read().releasedTotal, 'reason');
}
