import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * Metrics whose values another component keeps (the lease broker counts its own events, the
 * session service knows what runs): read at scrape time, so nothing is kept twice.
 */
export function scrapedGauge(registry: Registry, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}

/** A counter kept elsewhere, read whole at scrape time. */
export function scrapedCounter(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

/** A counter kept elsewhere split by one label over a closed set of values, every value always rendered. */
export function scrapedLabelledCounter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelName: L,
  read: () => Readonly<Record<string, number>>,
): void {
  new Counter<L>({
    name,
    help,
    labelNames: [labelName],
    registers: [registry],
    collect() {
      this.reset();
      for (const [value, count] of Object.entries(read())) this.inc({ [labelName]: value } as Record<L, string>, count);
    },
  });
}
