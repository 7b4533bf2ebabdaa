import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { pruneOldLogs } from './retention.js';
import { RotatingFile } from './rotatingFile.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const fresh = () => (dir = mkdtempSync(join(tmpdir(), 'kandev-rotate-')));
const linesOf = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : []);

describe('log files bounded for a process left running', () => {
  it('a file past its bound moves to .1 (replacing the older one) and starts anew; every recent line is kept, in order', async () => {
    const path = join(fresh(), 'agentctl-s1.log');
    writeFileSync(path, 'old line from the last run\n');
    const file = new RotatingFile(path, { maxBytes: 100 });
    const lines = Array.from({ length: 30 }, (_, i) => `line ${String(i).padStart(2, '0')} ${'x'.repeat(10)}`);
    for (const line of lines) file.write(`${line}\n`);
    await file.end();
    expect(statSync(path).size).toBeLessThanOrEqual(100);
    expect(statSync(`${path}.1`).size).toBeLessThanOrEqual(100);
    const kept = [...linesOf(`${path}.1`), ...linesOf(path)];
    // The newest lines, contiguous and in order, up to the last one written.
    expect(kept.at(-1)).toBe(lines.at(-1));
    expect(kept).toEqual(lines.slice(lines.length - kept.length));
    expect(kept.length).toBeGreaterThanOrEqual(4);
    file.write('after the end\n'); // dropped, never thrown
  });

  it('a file that cannot be written drops its lines and never throws', async () => {
    const file = new RotatingFile(join(fresh(), 'no', 'such', 'folder.log'), { maxBytes: 10 });
    for (let i = 0; i < 5; i++) file.write('0123456789\n');
    await file.end();
    expect(existsSync(join(dir, 'no'))).toBe(false);
  });

  it("the structured logger's file target rotates the same way", async () => {
    const path = join(fresh(), 'backend.log');
    const log = createLogger<'tick'>({ targets: [{ file: path, maxBytes: 300 }] });
    // Lines over time, as a running backend writes them (each reaches the file before the next).
    for (let i = 0; i < 40; i++) {
      log.info('tick', { i });
      await log.flush();
    }
    await log.close();
    const kept = [...linesOf(`${path}.1`), ...linesOf(path)].map((l) => (JSON.parse(l) as { i: number }).i);
    expect(statSync(path).size).toBeLessThanOrEqual(300);
    expect(statSync(`${path}.1`).size).toBeLessThanOrEqual(300);
    expect(kept.at(-1)).toBe(39);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, k) => 40 - kept.length + k));
    // Private, the file it started anew included.
    expect([statSync(path).mode & 0o777, statSync(`${path}.1`).mode & 0o777]).toEqual([0o600, 0o600]);
  });

  it('pruning removes only matching files nobody wrote to for the given age', () => {
    fresh();
    const now = Date.UTC(2026, 11, 3);
    const day = 24 * 3_600_000;
    const files = { 'agentctl-old.log': 20, 'agentctl-old.log.1': 20, 'agentctl-recent.log': 2, 'backend.log': 30 };
    for (const [name, daysAgo] of Object.entries(files)) {
      writeFileSync(join(dir, name), 'x');
      const at = (now - daysAgo * day) / 1000;
      utimesSync(join(dir, name), at, at);
    }
    expect(pruneOldLogs(dir, /^agentctl-.*\.log(\.1)?$/, 14 * day, now).sort()).toEqual(['agentctl-old.log', 'agentctl-old.log.1']);
    expect(existsSync(join(dir, 'agentctl-recent.log'))).toBe(true);
    expect(existsSync(join(dir, 'backend.log'))).toBe(true);
    expect(pruneOldLogs(join(dir, 'missing'), /./, 0, now)).toEqual([]);
  });
});
