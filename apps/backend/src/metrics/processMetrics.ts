import { Gauge, type Registry } from 'prom-client';
import { scrapedGauge } from './scraped.js';

export interface ProcessResourceSources {
  /** Node's active handles and requests and ref'd timers, one type name each (process.getActiveResourcesInfo). */
  activeResources(): string[];
  /** The house clock's pending timers, which are unref'd and so missing from the list above. */
  clockTimers(): number;
}

/**
 * What the backend process holds open, for the soak bench and for anyone watching for a leak:
 * sockets, file requests and timers by Node's type name (a closed set Node defines, never an id),
 * and the clock's own pending timers. Types that disappear are dropped at the next scrape.
 */
export function registerProcessMetrics(registry: Registry, sources: ProcessResourceSources): void {
  new Gauge({
    name: 'kandev_process_active_resources',
    help: "Node's active resources in the backend process by type (handles, requests, ref'd timers).",
    labelNames: ['type'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const counts = new Map<string, number>();
      for (const type of sources.activeResources()) counts.set(type, (counts.get(type) ?? 0) + 1);
      for (const [type, count] of counts) this.set({ type }, count);
    },
  });
  scrapedGauge(
    registry,
    'kandev_process_clock_timers',
    "Pending timers of the backend's clock (unref'd, so not among the active resources).",
    sources.clockTimers,
  );
}
