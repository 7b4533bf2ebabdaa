import { describe, expect, it } from 'vitest';
import { ActiveEditorStore } from './activeEditor.js';

describe('active Monaco editor (what the status bar follows)', () => {
  it('S52 publishes the shown file, and a session clears only its own entry', () => {
    const store = new ActiveEditorStore();
    let changes = 0;
    store.onDidChange(() => changes++);
    store.set({ sessionId: 's1', path: 'a.kt', language: 'kotlin', cursor: { line: 1, column: 1 } });
    store.set({ sessionId: 's1', path: 'a.kt', language: 'kotlin', cursor: { line: 1, column: 1 } });
    expect(changes).toBe(1);
    store.clear({ sessionId: 's2' });
    expect(store.get()?.path).toBe('a.kt');
    store.set({ sessionId: 's1', path: 'notes.txt' });
    expect(store.get()?.language).toBeUndefined();
    store.clear({ sessionId: 's1', path: 'a.kt' });
    expect(store.get()?.path).toBe('notes.txt');
    store.clear({ sessionId: 's1' });
    expect(store.get()).toBeUndefined();
    expect(changes).toBe(3);
  });
});
