import { Emitter, ManualClock } from '@kandev/kit';
import { describe, expect, it } from 'vitest';
import { EditingRegistry, type OutlineSymbol } from './registry.js';
import { OutlineFeed, REFRESH_DELAY_MS, type OutlineState, type OutlineWorkspace } from './outlineFeed.js';

const SYMBOL: OutlineSymbol = {
  name: 'main',
  kind: 12,
  children: [],
  range: { start: { line: 0, character: 0 }, end: { line: 2, character: 1 } },
  selectionRange: { start: { line: 0, character: 9 }, end: { line: 0, character: 13 } },
};

/** A feed on a manual clock over one open file, with a documentSymbol source that counts its calls. */
function setup() {
  const clock = new ManualClock();
  const editing = new EditingRegistry();
  const typed = new Emitter<{ isFlush: boolean }>();
  const workspace = { sessionId: 's1', modelOf: () => ({ onDidChangeContent: typed.event }) } as unknown as OutlineWorkspace;
  const requests: string[] = [];
  editing.documentSymbols.add('s1', 'typescript', async (path) => (requests.push(path), [SYMBOL]));
  const feed = new OutlineFeed(editing, workspace, 'src/a.ts', clock);
  const states: OutlineState['kind'][] = [];
  feed.listeners.add((state) => states.push(state.kind));
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { clock, feed, typed, requests, states, settle };
}

describe('outline feed on an injected clock', () => {
  it('fetches once the first timer is due, and refetches only after the typing pause', async () => {
    const t = setup();
    expect(t.requests).toEqual([]);
    t.clock.advance(0);
    await t.settle();
    expect(t.requests).toEqual(['src/a.ts']);
    expect(t.feed.state).toEqual({ kind: 'ready', symbols: [SYMBOL] });

    t.typed.fire({ isFlush: false });
    t.clock.advance(REFRESH_DELAY_MS - 100);
    t.typed.fire({ isFlush: false }); // another keystroke restarts the pause
    t.clock.advance(REFRESH_DELAY_MS - 1);
    await t.settle();
    expect(t.requests).toHaveLength(1);
    t.clock.advance(1);
    await t.settle();
    expect(t.requests).toHaveLength(2);
    // A refetch keeps the symbols on screen: no second 'loading'.
    expect(t.states).toEqual(['loading', 'ready', 'ready']);
  });

  it('text replaced whole (a clean tab following a rewrite on disk) refetches at once, without the typing pause', async () => {
    const t = setup();
    t.clock.advance(0);
    await t.settle();
    expect(t.requests).toHaveLength(1);
    t.typed.fire({ isFlush: true });
    t.clock.advance(0);
    await t.settle();
    expect(t.requests).toHaveLength(2);
    expect(t.states).toEqual(['loading', 'ready', 'ready']);
  });

  it('disposing the feed cancels its pending refetch', async () => {
    const t = setup();
    t.typed.fire({ isFlush: false });
    t.feed.dispose();
    expect(t.clock.pending).toBe(0);
    t.clock.advance(REFRESH_DELAY_MS);
    await t.settle();
    expect(t.requests).toEqual([]);
  });
});
