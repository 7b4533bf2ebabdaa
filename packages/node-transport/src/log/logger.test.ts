import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_LOG_FIELD_CHARS, REDACTED } from './fields.js';
import { createLogger } from './logger.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function memory(level?: 'debug' | 'info' | 'warn' | 'error') {
  const lines: string[] = [];
  const log = createLogger<'a' | 'b'>({ targets: [{ lines: (line) => lines.push(line) }], now: () => new Date(0), ...(level ? { level } : {}) });
  return { log, lines, records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('structured logger', () => {
  it('writes one JSON object a line: level label, ISO time, event, then the fields; undefined fields left out', () => {
    const { log, lines } = memory();
    log.info('a', { reason: 'new_lease', count: 2, gone: undefined });
    log.log('warn', 'b');
    expect(lines).toEqual([
      '{"level":"info","time":"1970-01-01T00:00:00.000Z","event":"a","reason":"new_lease","count":2}\n',
      '{"level":"warn","time":"1970-01-01T00:00:00.000Z","event":"b"}\n',
    ]);
  });

  it('drops lines below its level (info by default)', () => {
    const { log, records } = memory();
    log.debug('a');
    log.error('b');
    expect(records().map((r) => r.level)).toEqual(['error']);
    const verbose = memory('debug');
    verbose.log.debug('a');
    expect(verbose.records()).toHaveLength(1);
  });

  it('cuts long strings and lists, redacts secret keys, and never lets a field replace the event', () => {
    const { log, records } = memory();
    log.info('a', {
      line: 'x'.repeat(MAX_LOG_FIELD_CHARS + 10),
      token: 'abc',
      leaseId: 'lease-1',
      event: 'forged',
      repos: Array.from({ length: 80 }, (_, i) => `r${i}`),
    });
    const [record] = records();
    expect(record?.event).toBe('a');
    expect(String(record?.line)).toHaveLength(MAX_LOG_FIELD_CHARS + 1);
    expect(record?.token).toBe(REDACTED);
    expect(record?.leaseId).toBe(REDACTED);
    expect(record?.repos).toHaveLength(50);
  });

  it('writes a file asynchronously: flush makes every line logged so far readable; close too, and drops later lines', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kandev-log-'));
    const file = join(dir, 'app.log');
    const log = createLogger<'a'>({ targets: [{ file }] });
    for (let i = 0; i < 100; i++) log.info('a', { i });
    await log.flush();
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(100);
    log.info('a', { i: 100 });
    await log.close();
    log.info('a', { i: 101 });
    const last = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { i: number });
    expect(last.map((r) => r.i).slice(-1)).toEqual([100]);
  });

  it('a failing output never throws into the caller', () => {
    const log = createLogger<'a'>({
      targets: [
        {
          lines: () => {
            throw new Error('disk full');
          },
        },
      ],
    });
    expect(() => log.info('a')).not.toThrow();
  });
});
