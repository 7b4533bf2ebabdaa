/**
 * A minimal Prometheus text-format registry: counters with a fixed label set and gauges read at
 * scrape time. Label values come from closed sets chosen by the caller (close codes, reasons),
 * never from ids, so series stay bounded.
 */
type Labels = Record<string, string>;

interface Metric {
  render(): string;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labelText(labels: Labels): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`;
}

export class Counter implements Metric {
  private readonly values = new Map<string, { labels: Labels; value: number }>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[] = [],
  ) {}

  inc(labels: Labels = {}, by = 1): void {
    const ordered: Labels = {};
    for (const name of this.labelNames) ordered[name] = labels[name] ?? '';
    const key = JSON.stringify(ordered);
    const entry = this.values.get(key) ?? { labels: ordered, value: 0 };
    entry.value += by;
    this.values.set(key, entry);
  }

  get(labels: Labels = {}): number {
    const ordered: Labels = {};
    for (const name of this.labelNames) ordered[name] = labels[name] ?? '';
    return this.values.get(JSON.stringify(ordered))?.value ?? 0;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    // An unlabelled counter is always present (0 before its first event), so a scrape can tell
    // "nothing happened" from "metric missing".
    if (this.labelNames.length === 0 && this.values.size === 0) lines.push(`${this.name} 0`);
    for (const { labels, value } of this.values.values()) lines.push(`${this.name}${labelText(labels)} ${value}`);
    return lines.join('\n');
  }
}

export class Gauge implements Metric {
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly read: () => number,
  ) {}

  render(): string {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`, `${this.name} ${this.read()}`].join('\n');
  }
}

/**
 * A counter whose values another component keeps (the lease broker counts its own events): read
 * at scrape time, optionally split by one label over a closed set of values (all always rendered).
 */
export class ObservedCounter implements Metric {
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly read: () => number | Readonly<Record<string, number>>,
    private readonly labelName?: string,
  ) {}

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    const value = this.read();
    if (typeof value === 'number' || this.labelName === undefined) {
      lines.push(`${this.name} ${typeof value === 'number' ? value : 0}`);
    } else {
      for (const [label, count] of Object.entries(value)) lines.push(`${this.name}${labelText({ [this.labelName]: label })} ${count}`);
    }
    return lines.join('\n');
  }
}

export class MetricsRegistry {
  private readonly metrics: Metric[] = [];

  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    const counter = new Counter(name, help, labelNames);
    this.metrics.push(counter);
    return counter;
  }

  gauge(name: string, help: string, read: () => number): Gauge {
    const gauge = new Gauge(name, help, read);
    this.metrics.push(gauge);
    return gauge;
  }

  /** A counter kept elsewhere, read at scrape time (see ObservedCounter). */
  observedCounter(name: string, help: string, read: () => number | Readonly<Record<string, number>>, labelName?: string): ObservedCounter {
    const counter = new ObservedCounter(name, help, read, labelName);
    this.metrics.push(counter);
    return counter;
  }

  render(): string {
    return `${this.metrics.map((m) => m.render()).join('\n')}\n`;
  }
}
