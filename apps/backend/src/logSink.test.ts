import { describe, expect, it } from 'vitest';
import { batchedSink, createLogger } from './log.js';

describe('batchedSink', () => {
  it('writes the lines of one synchronous run as one chunk, in order, byte for byte, on the next tick', async () => {
    const writes: string[] = [];
    const sink = batchedSink((chunk) => writes.push(chunk));
    const log = createLogger([sink], () => new Date(0));
    log.info('lease_create', { reason: 'new_lease' });
    log.warn('lsp_frame_refused', { from: 'server' });
    expect(writes).toEqual([]);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(writes).toEqual([
      '{"time":"1970-01-01T00:00:00.000Z","level":"info","event":"lease_create","reason":"new_lease"}\n'
        + '{"time":"1970-01-01T00:00:00.000Z","level":"warn","event":"lsp_frame_refused","from":"server"}\n',
    ]);
    log.info('lease_release');
    sink.flush();
    expect(writes).toHaveLength(2);
    expect(writes[1]).toContain('"event":"lease_release"');
  });

  it('survives a sink that throws, and keeps the next lines', async () => {
    let fail = true;
    const writes: string[] = [];
    const sink = batchedSink((chunk) => {
      if (fail) throw new Error('disk full');
      writes.push(chunk);
    });
    sink('a\n');
    sink.flush();
    fail = false;
    sink('b\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['b\n']);
  });
});
