import { describe, expect, it } from 'vitest';
import { caretFollowsReducedMotion, type MotionQuery } from './reducedMotion.js';

/** A reduced-motion query whose answer the test flips, as the system setting would. */
function fakeQuery(matches: boolean) {
  const listeners = new Set<() => void>();
  let current = matches;
  const query: MotionQuery & { set(value: boolean): void; listeners: Set<() => void> } = {
    get matches() {
      return current;
    },
    listeners,
    addEventListener: (_type, listener) => void listeners.add(listener),
    removeEventListener: (_type, listener) => void listeners.delete(listener),
    set(value) {
      current = value;
      for (const listener of [...listeners]) listener();
    },
  };
  return query;
}

function fakeEditor() {
  const applied: string[] = [];
  return { applied, updateOptions: (options: { cursorBlinking: string }) => void applied.push(options.cursorBlinking) };
}

describe('caretFollowsReducedMotion', () => {
  it('holds the caret solid while reduced motion is asked for, and lets it blink otherwise', () => {
    const still = fakeEditor();
    caretFollowsReducedMotion(still, fakeQuery(true));
    expect(still.applied).toEqual(['solid']);
    const moving = fakeEditor();
    caretFollowsReducedMotion(moving, fakeQuery(false));
    expect(moving.applied).toEqual(['blink']);
  });

  it('follows the setting when it changes, until disposed', () => {
    const editor = fakeEditor();
    const query = fakeQuery(false);
    const following = caretFollowsReducedMotion(editor, query);
    query.set(true);
    query.set(false);
    expect(editor.applied).toEqual(['blink', 'solid', 'blink']);
    following.dispose();
    expect(query.listeners.size).toBe(0);
    query.set(true);
    expect(editor.applied).toEqual(['blink', 'solid', 'blink']);
  });

  it('does nothing without a window to ask', () => {
    const editor = fakeEditor();
    caretFollowsReducedMotion(editor, undefined).dispose();
    expect(editor.applied).toEqual([]);
  });
});
