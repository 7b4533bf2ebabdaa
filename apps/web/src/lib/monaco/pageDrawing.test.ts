import { describe, expect, it } from 'vitest';
import { DRAWING_FRAME_GAP_MS, whenPageDraws, type FrameSource } from './pageDrawing.js';

/** Frames delivered by the test: each `frame(time)` calls what was asked for since the last one. */
function manualFrames(): { source: FrameSource; frame(time: number): void; asked(): number } {
  let waiting: ((time: number) => void)[] = [];
  let asked = 0;
  return {
    source: (callback) => {
      asked++;
      waiting.push(callback);
    },
    frame(time) {
      const now = waiting;
      waiting = [];
      now.forEach((callback) => callback(time));
    },
    asked: () => asked,
  };
}

function cancellation() {
  const listeners: (() => void)[] = [];
  const token = {
    isCancellationRequested: false,
    onCancellationRequested: (listener: () => void) => {
      listeners.push(listener);
      return { dispose: () => listeners.splice(listeners.indexOf(listener), 1) };
    },
  };
  return { token, cancel: () => ((token.isCancellationRequested = true), [...listeners].forEach((l) => l())), listeners };
}

describe('whenPageDraws', () => {
  it('resolves once two frames come at a drawing pace', async () => {
    const frames = manualFrames();
    let drawing: boolean | undefined;
    void whenPageDraws(undefined, frames.source).then((value) => (drawing = value));
    frames.frame(1000);
    await Promise.resolve();
    expect(drawing).toBeUndefined();
    frames.frame(1016);
    await Promise.resolve();
    expect(drawing).toBe(true);
  });

  it('waits on while frames come a second apart (a background tab), and resolves when they speed up', async () => {
    const frames = manualFrames();
    let drawing: boolean | undefined;
    void whenPageDraws(undefined, frames.source).then((value) => (drawing = value));
    for (const time of [0, 1000, 2000, 2000 + DRAWING_FRAME_GAP_MS + 1]) frames.frame(time);
    await Promise.resolve();
    expect(drawing).toBeUndefined();
    frames.frame(2000 + DRAWING_FRAME_GAP_MS + 17);
    await Promise.resolve();
    expect(drawing).toBe(true);
    // Nothing more is asked of the window once it resolved.
    const asked = frames.asked();
    frames.frame(5000);
    expect(frames.asked()).toBe(asked);
  });

  it('a cancelled wait resolves false and lets go of the token, and a cancelled token is not waited on', async () => {
    const frames = manualFrames();
    const { token, cancel, listeners } = cancellation();
    const waiting = whenPageDraws(token, frames.source);
    frames.frame(0);
    cancel();
    expect(await waiting).toBe(false);
    expect(listeners).toEqual([]);
    expect(await whenPageDraws(token, frames.source)).toBe(false);
  });

  it('outside a browser (no frames at all) nothing waits', async () => {
    expect(await whenPageDraws(undefined, undefined)).toBe(true);
  });
});
