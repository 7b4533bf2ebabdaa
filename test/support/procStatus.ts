import { readFileSync } from 'node:fs';

/** Resident set size of a process in bytes, from /proc/PID/status (VmRSS); undefined once gone. */
export function rssBytes(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Samples a process's RSS on an interval and keeps the peak, until stopped. */
export class RssSampler {
  peak = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    intervalMs = 50,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  sample(): number {
    const rss = rssBytes(this.pid) ?? 0;
    if (rss > this.peak) this.peak = rss;
    return rss;
  }

  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return this.peak;
  }
}

export const MiB = 1024 * 1024;
