import { describe, expect, it } from 'vitest';
import { ManualClock } from '@kandev/kit';
import { TaskHostPins } from './taskHostPins.js';
import type { Logger } from '../base/log.js';
import { IdleReclaimer } from './idleReclaimer.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Logger;
const MINUTE = 60_000;

function setup(idleMs = 30 * MINUTE) {
  const clock = new ManualClock();
  const pins = new TaskHostPins();
  const running = new Set(['s1']);
  const stopped: string[] = [];
  const reclaimer = new IdleReclaimer({
    idleMs,
    clock,
    pins,
    log: quiet,
    isRunning: (id) => running.has(id),
    stop: async (id) => {
      stopped.push(id);
      running.delete(id);
    },
  });
  return { clock, pins, running, stopped, reclaimer };
}

describe('idle task-host reclaim', () => {
  it('C07 stops an unpinned task host after the idle time, and not before', () => {
    const { clock, stopped, reclaimer } = setup();
    reclaimer.touch('s1');
    clock.advance(30 * MINUTE - 1);
    expect(stopped).toEqual([]);
    clock.advance(1);
    expect(stopped).toEqual(['s1']);
  });

  it('C07 never reclaims while a lease pins the task host; the idle time starts when the last pin goes', () => {
    const { clock, pins, stopped, reclaimer } = setup();
    reclaimer.touch('s1');
    pins.pin('lease-a', 's1');
    clock.advance(5 * 60 * MINUTE);
    expect(stopped).toEqual([]);
    pins.unpin('lease-a');
    clock.advance(29 * MINUTE);
    expect(stopped).toEqual([]);
    clock.advance(MINUTE);
    expect(stopped).toEqual(['s1']);
  });

  it('use re-arms the deadline, so a stale deadline never stops a task host in use', () => {
    const { clock, stopped, reclaimer } = setup();
    reclaimer.touch('s1');
    clock.advance(20 * MINUTE);
    reclaimer.touch('s1');
    clock.advance(20 * MINUTE);
    expect(stopped).toEqual([]);
    clock.advance(10 * MINUTE);
    expect(stopped).toEqual(['s1']);
  });

  it('does nothing for ended sessions or when disabled', () => {
    const ended = setup();
    ended.reclaimer.touch('s1');
    ended.reclaimer.ended('s1');
    ended.clock.advance(60 * MINUTE);
    expect(ended.stopped).toEqual([]);
    const disabled = setup(0);
    disabled.reclaimer.touch('s1');
    disabled.clock.advance(600 * MINUTE);
    expect(disabled.stopped).toEqual([]);
    expect(disabled.clock.pending).toBe(0);
  });
});
