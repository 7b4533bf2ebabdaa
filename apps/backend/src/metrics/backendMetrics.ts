import { BadInputCloseCode, CloseCode, PeerCloseCode, ReservedCloseCode } from '@kandev/protocol';
import { Counter, Histogram, Registry } from 'prom-client';
import { BatchedHistogram } from './batchedHistogram.js';
import { scrapedGauge } from './scraped.js';

/** Close codes that get their own label value; anything else a peer sends is "other". */
const LABELLED_CODES = new Set<number>([
  ...Object.values(CloseCode),
  ...Object.values(ReservedCloseCode),
  ...Object.values(BadInputCloseCode),
  ...Object.values(PeerCloseCode),
]);

export function closeCodeLabel(code: number): string {
  return LABELLED_CODES.has(code) ? String(code) : 'other';
}

/** Which way a relayed frame went: from the browser to its server, or back. */
export type RelayDirection = 'to_server' | 'to_browser';

/** Records one frame's time in the backend, in milliseconds (performance.now differences). */
export type RelayTimer = (ms: number) => void;

export interface BackendMetrics {
  registry: Registry;
  lspOpened: Counter;
  lspClosed: Counter<'code'>;
  /** The relay's added latency per direction, bound once so a frame costs one observe and no label lookup. */
  relayed: Record<RelayDirection, RelayTimer>;
  /** A lease's server from its stream opening (or its install ending) to `ready`. */
  serverStarted(ms: number): void;
  /** An automatic install on the task host, from `installing` to `installed` or `install_failed`. */
  installFinished(ms: number, ok: boolean): void;
}

export interface MetricSources {
  runningSessions(): number;
  activeLspConnections(): number;
}

// Relay work is tens of microseconds per frame; a bucket above 100 ms means the event loop stalled.
const RELAY_BUCKETS = [0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1];
const START_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120];
const INSTALL_BUCKETS = [1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600];

/**
 * The backend's /metrics (Prometheus text format, prom-client), on a registry of its own: never the
 * library's global one, so two backends in one process (tests) keep their counts apart. Labels
 * are closed sets (close codes, directions, outcomes), never an id, so series stay bounded.
 */
export function createBackendMetrics(sources: MetricSources): BackendMetrics {
  const registry = new Registry();
  scrapedGauge(registry, 'kandev_sessions_running', 'Sessions whose task host this backend runs.', sources.runningSessions);
  scrapedGauge(registry, 'kandev_lsp_connections_active', 'Browser LSP connections open now.', sources.activeLspConnections);
  const lspOpened = new Counter({
    name: 'kandev_lsp_connections_opened_total',
    help: 'Browser LSP WebSockets accepted (before admission).',
    registers: [registry],
  });
  const lspClosed = new Counter({
    name: 'kandev_lsp_connections_closed_total',
    help: 'Browser LSP WebSockets closed, by close code.',
    labelNames: ['code'] as const,
    registers: [registry],
  });
  // Recorded on every relayed frame: batched counts, read at scrape time (no allocation per frame).
  const relay = new BatchedHistogram(
    'kandev_lsp_relay_added_seconds',
    'Time an LSP frame spends in the backend between its two hops (parse, lease broker, hand-off to the other socket), by direction.',
    'direction',
    ['to_server', 'to_browser'] as const,
    RELAY_BUCKETS,
  ).register(registry);
  const start = new Histogram({
    name: 'kandev_lsp_server_start_seconds',
    help: 'Language server start: from its stream opening (or its install ending) to ready.',
    buckets: START_BUCKETS,
    registers: [registry],
  });
  const install = new Histogram({
    name: 'kandev_lsp_server_install_seconds',
    help: 'Automatic language server installs on the task host, by outcome.',
    labelNames: ['outcome'] as const,
    buckets: INSTALL_BUCKETS,
    registers: [registry],
  });
  const toServer = relay.recorder('to_server');
  const toBrowser = relay.recorder('to_browser');
  return {
    registry,
    lspOpened,
    lspClosed,
    relayed: { to_server: (ms) => toServer(ms / 1000), to_browser: (ms) => toBrowser(ms / 1000) },
    serverStarted: (ms) => start.observe(ms / 1000),
    installFinished: (ms, ok) => install.observe({ outcome: ok ? 'installed' : 'failed' }, ms / 1000),
  };
}
