import { CloseCode } from '@kandev/protocol';
import { MetricsRegistry, type Counter } from './registry.js';

/** Close codes that get their own label value; anything else a peer sends is "other". */
const LABELLED_CODES = new Set<number>([...Object.values(CloseCode), 1005, 1006, 1007, 1009, 1011, 1015]);

export function closeCodeLabel(code: number): string {
  return LABELLED_CODES.has(code) ? String(code) : 'other';
}

export interface BackendMetrics {
  registry: MetricsRegistry;
  lspOpened: Counter;
  lspClosed: Counter;
}

export interface MetricSources {
  runningSessions(): number;
  activeLspConnections(): number;
}

export function createBackendMetrics(sources: MetricSources): BackendMetrics {
  const registry = new MetricsRegistry();
  registry.gauge('kandev_sessions_running', 'Sessions whose task host this backend runs.', sources.runningSessions);
  registry.gauge('kandev_lsp_connections_active', 'Browser LSP connections open now.', sources.activeLspConnections);
  const lspOpened = registry.counter('kandev_lsp_connections_opened_total', 'Browser LSP WebSockets accepted (before admission).');
  const lspClosed = registry.counter('kandev_lsp_connections_closed_total', 'Browser LSP WebSockets closed, by close code.', ['code']);
  return { registry, lspOpened, lspClosed };
}
