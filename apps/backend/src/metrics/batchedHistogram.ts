import type { Registry } from 'prom-client';

/**
 * A histogram with one label whose values are known up front (the relay's two directions), for
 * something recorded on every LSP frame. prom-client's own `observe` builds a label object, a hash
 * string and a closure per call; here a call adds to preallocated counts (no allocation, no label
 * lookup), and the registry reads them only when /metrics is scraped. The text it exposes is
 * prom-client's histogram format (buckets cumulative, `+Inf`, `_sum`, `_count`).
 */
export class BatchedHistogram<V extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly counts: Record<V, Float64Array>;
  private readonly sums: Record<V, number>;

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelName: string,
    private readonly labelValues: readonly V[],
    /** Upper bounds, ascending (seconds). */
    private readonly bounds: readonly number[],
  ) {
    this.counts = {} as Record<V, Float64Array>;
    this.sums = {} as Record<V, number>;
    for (const value of labelValues) {
      // One slot per bound, plus the last for what is above every bound (+Inf).
      this.counts[value] = new Float64Array(bounds.length + 1);
      this.sums[value] = 0;
    }
  }

  /** A recorder bound to one label value: what the hot path calls, once per frame. */
  recorder(value: V): (seconds: number) => void {
    const counts = this.counts[value];
    const bounds = this.bounds;
    const last = bounds.length;
    return (seconds) => {
      let i = 0;
      while (i < last && seconds > (bounds[i] as number)) i++;
      counts[i]!++;
      this.sums[value] += seconds;
    };
  }

  register(registry: Registry): this {
    registry.registerMetric(this as never);
    return this;
  }

  /** What prom-client's registry reads at scrape time. */
  get(): {
    name: string;
    help: string;
    type: string;
    aggregator: string;
    values: Array<{ metricName: string; labels: Record<string, string | number>; value: number }>;
  } {
    const values: Array<{ metricName: string; labels: Record<string, string | number>; value: number }> = [];
    for (const labelValue of this.labelValues) {
      const counts = this.counts[labelValue];
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += counts[i] as number;
        values.push({ metricName: `${this.name}_bucket`, labels: { le: bound, [this.labelName]: labelValue }, value: cumulative });
      });
      cumulative += counts[this.bounds.length] as number;
      values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf', [this.labelName]: labelValue }, value: cumulative });
      values.push({ metricName: `${this.name}_sum`, labels: { [this.labelName]: labelValue }, value: this.sums[labelValue] });
      values.push({ metricName: `${this.name}_count`, labels: { [this.labelName]: labelValue }, value: cumulative });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    for (const value of this.labelValues) {
      this.counts[value].fill(0);
      this.sums[value] = 0;
    }
  }
}
