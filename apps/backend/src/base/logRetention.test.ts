import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@kandev/kit';
import { silentLogger } from '@kandev/node-transport';
import { afterEach, describe, expect, it } from 'vitest';
import { keepLogsFor } from './logRetention.js';

const DAY = 24 * 3_600_000;
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function logAt(name: string, at: number): void {
  writeFileSync(join(dir, name), 'x\n');
  utimesSync(join(dir, name), at / 1000, at / 1000);
}

describe('session log retention (KANDEV_LOG_RETENTION_DAYS)', () => {
  it('deletes session logs untouched for the retention at start, then once a day; keeps the backend log and fresh ones', () => {
    dir = mkdtempSync(join(tmpdir(), 'kandev-retention-'));
    const clock = new ManualClock(Date.UTC(2026, 11, 3));
    logAt('agentctl-gone.log', clock.now() - 20 * DAY);
    logAt('agentctl-gone.log.1', clock.now() - 21 * DAY);
    logAt('agentctl-recent.log', clock.now() - 10 * DAY);
    logAt('backend.log.1', clock.now() - 90 * DAY);
    const retention = keepLogsFor(dir, 14, clock, silentLogger());
    expect(existsSync(join(dir, 'agentctl-gone.log'))).toBe(false);
    expect(existsSync(join(dir, 'agentctl-gone.log.1'))).toBe(false);
    expect(existsSync(join(dir, 'agentctl-recent.log'))).toBe(true);
    expect(existsSync(join(dir, 'backend.log.1'))).toBe(true);
    clock.advance(4 * DAY); // 14 days old now: pruned at a daily run
    expect(existsSync(join(dir, 'agentctl-recent.log'))).toBe(false);
    retention.dispose();
  });

  it('0 days keeps everything', () => {
    dir = mkdtempSync(join(tmpdir(), 'kandev-retention-'));
    const clock = new ManualClock(Date.UTC(2026, 11, 3));
    logAt('agentctl-gone.log', clock.now() - 900 * DAY);
    keepLogsFor(dir, 0, clock, silentLogger()).dispose();
    expect(existsSync(join(dir, 'agentctl-gone.log'))).toBe(true);
  });
});
