/**
 * The soak's one source of choices: a seeded generator (mulberry32), so a run that found something
 * can be driven again the same way with BENCH_SOAK_SEED (timing on a shared machine still varies).
 */
export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from nothing');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One key, with probability proportional to its weight. */
  weighted<K extends string>(weights: Record<K, number>): K {
    const entries = Object.entries(weights) as Array<[K, number]>;
    let roll = this.next() * entries.reduce((sum, [, w]) => sum + w, 0);
    for (const [key, weight] of entries) {
      roll -= weight;
      if (roll < 0) return key;
    }
    return (entries.at(-1) as [K, number])[0];
  }
}

/** BENCH_SOAK_SEED when set, else a fresh one (printed by the run, so it can be repeated). */
export function soakSeed(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.BENCH_SOAK_SEED;
  if (given !== undefined && given !== '') {
    const seed = Number(given);
    if (!Number.isInteger(seed) || seed < 0) throw new RangeError(`BENCH_SOAK_SEED must be a non-negative integer, got ${given}`);
    return seed;
  }
  return Math.floor(Math.random() * 2 ** 31);
}
