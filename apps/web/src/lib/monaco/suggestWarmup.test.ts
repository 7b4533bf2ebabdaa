import { Emitter } from '@kandev/kit';
import { describe, expect, it } from 'vitest';
import { warmSuggestWhenIdle } from './suggestWarmup.js';

/** Monaco as far as the scheduling goes: its editor creation event. */
function setup() {
  const created = new Emitter<unknown>();
  const monaco = { editor: { onDidCreateEditor: created.event } } as never;
  const idle: Array<() => void> = [];
  let warmed = 0;
  const warmup = warmSuggestWhenIdle(
    monaco,
    (run) => idle.push(run),
    async () => void warmed++,
  );
  return { created, idle, warmup, warmed: () => warmed, listeners: () => created.listenerCount };
}

describe('warmSuggestWhenIdle', () => {
  it('waits for the first editor, then for the page to be idle, and warms once per page', () => {
    const { created, idle, warmup, warmed, listeners } = setup();
    expect(idle).toHaveLength(0);
    created.fire({});
    expect(idle).toHaveLength(1);
    expect(warmed()).toBe(0);
    // Later editors (the warm-up's own among them) schedule nothing more, and nothing listens any longer.
    created.fire({});
    expect(idle).toHaveLength(1);
    expect(listeners()).toBe(0);
    idle[0]!();
    idle[0]!();
    expect(warmed()).toBe(1);
    warmup.dispose();
  });

  it('disposed before the page went idle (the window closing), it never runs', () => {
    const { created, idle, warmup, warmed, listeners } = setup();
    created.fire({});
    warmup.dispose();
    idle[0]!();
    expect(warmed()).toBe(0);
    expect(listeners()).toBe(0);
  });

  it('disposed before any editor, it never schedules', () => {
    const { created, idle, warmup, listeners } = setup();
    warmup.dispose();
    created.fire({});
    expect(idle).toHaveLength(0);
    expect(listeners()).toBe(0);
  });
});
