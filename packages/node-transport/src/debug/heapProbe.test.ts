import { existsSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answerHeapProbe, HEAP_PROBE_ENV, HEAP_PROBE_SIGNAL, heapProbeFiles, startHeapProbe, type HeapProbeAnswer } from './heapProbe.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const probeDir = () => (dir = mkdtempSync(join(tmpdir(), 'kandev-heap-probe-')));

describe('heap probe (soak only)', () => {
  it('is off without KANDEV_HEAP_PROBE_DIR: no signal handler, no gc exposed', () => {
    const before = process.listenerCount(HEAP_PROBE_SIGNAL);
    expect(startHeapProbe({}, () => undefined)).toBeUndefined();
    expect(startHeapProbe({ [HEAP_PROBE_ENV]: '' }, () => undefined)).toBeUndefined();
    expect(process.listenerCount(HEAP_PROBE_SIGNAL)).toBe(before);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });

  it('collects before it measures, answers the request by its number, and snapshots only when asked', () => {
    const d = probeDir();
    const files = heapProbeFiles(d, 4242);
    const order: string[] = [];
    writeFileSync(files.request, JSON.stringify({ seq: 7, snapshot: false }));
    const answer = answerHeapProbe(d, 4242, () => order.push('collect'));
    expect(order).toEqual(['collect']);
    expect(answer).toMatchObject({ pid: 4242, seq: 7 });
    expect(answer.heapUsed).toBeGreaterThan(0);
    expect(answer.spaces.old_space).toBeGreaterThan(0);
    expect(answer.spaces.code_space).toBeGreaterThan(0);
    expect(answer.snapshot).toBeUndefined();
    expect(JSON.parse(readFileSync(files.answer, 'utf8'))).toEqual(answer);
    expect(existsSync(files.snapshot(7))).toBe(false);

    writeFileSync(files.request, JSON.stringify({ seq: 8, snapshot: true }));
    const withSnapshot = answerHeapProbe(d, 4242, () => undefined);
    expect(withSnapshot.snapshot).toBe(files.snapshot(8));
    expect(JSON.parse(readFileSync(files.snapshot(8), 'utf8'))).toHaveProperty('snapshot.meta.node_fields');
  });

  it('on: the signal makes the process answer with its heap after a full collection', async () => {
    const d = probeDir();
    const errors: unknown[] = [];
    const stop = startHeapProbe({ [HEAP_PROBE_ENV]: d }, (err) => errors.push(err));
    expect(stop).toBeDefined();
    try {
      const files = heapProbeFiles(d, process.pid);
      writeFileSync(files.request, JSON.stringify({ seq: 1, snapshot: false }));
      const answered = new Promise<HeapProbeAnswer>((resolve) => {
        const watcher = watch(d, () => {
          if (!existsSync(files.answer)) return;
          watcher.close();
          resolve(JSON.parse(readFileSync(files.answer, 'utf8')) as HeapProbeAnswer);
        });
      });
      process.kill(process.pid, HEAP_PROBE_SIGNAL);
      const answer = await answered;
      expect(answer).toMatchObject({ pid: process.pid, seq: 1 });
      expect(errors).toEqual([]);
    } finally {
      stop?.();
    }
    expect(process.listenerCount(HEAP_PROBE_SIGNAL)).toBe(0);
  });
});
