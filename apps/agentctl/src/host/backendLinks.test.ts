import { ManualClock } from '@kandev/kit';
import { FakeWs } from '@kandev/node-transport/testing';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../base/log.js';
import { BackendLinks } from './backendLinks.js';

function links(graceMs: number) {
  const clock = new ManualClock();
  const orphaned: number[] = [];
  const table = new BackendLinks({
    graceMs,
    writeDeadlineMs: 5_000,
    keepalive: { intervalMs: 60_000, maxMisses: 2 },
    clock,
    logger: silentLogger,
    onOrphaned: () => orphaned.push(clock.now()),
  });
  return { clock, orphaned, table };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('BackendLinks: a task host nobody owns ends itself after the grace', () => {
  it('the grace starts when the last link is lost, and a backend that links again within it keeps the task host', async () => {
    const { clock, orphaned, table } = links(120_000);
    const first = new FakeWs();
    table.accept(first);
    first.emit('close', 1006);
    await settle();
    clock.advance(119_999);
    expect(orphaned).toEqual([]);
    // The restarted backend links in time: the grace is over, nothing ends.
    table.accept(new FakeWs());
    clock.advance(10 * 120_000);
    expect(orphaned).toEqual([]);
  });

  it('nobody links within the grace: the task host is told to stop, once', async () => {
    const { clock, orphaned, table } = links(120_000);
    // The backend that started it died before linking: its stdin closed.
    const start = clock.now();
    table.unowned();
    table.unowned();
    clock.advance(119_999);
    expect(orphaned).toEqual([]);
    clock.advance(1);
    expect(orphaned).toEqual([start + 120_000]);
    clock.advance(1_000_000);
    expect(orphaned).toHaveLength(1);
  });

  it('while one of two links stays open the task host is owned', async () => {
    const { clock, orphaned, table } = links(1_000);
    const a = new FakeWs();
    table.accept(a);
    table.accept(new FakeWs());
    a.emit('close', 1006);
    await settle();
    clock.advance(5_000);
    expect(orphaned).toEqual([]);
    expect(table.linked).toBe(1);
  });
});
