import { describe, expect, it } from 'vitest';
import { PendingReveal } from './pendingReveal.js';

describe('PendingReveal', () => {
  it('S37 a reveal is for its path only, survives a double mount in one task, and is gone afterwards', async () => {
    const reveal = new PendingReveal();
    reveal.request('a.ts', { lineNumber: 5, column: 3 });
    expect(reveal.seq).toBe(1);
    expect(reveal.take('b.ts')).toBeUndefined();
    expect(reveal.take('a.ts')).toEqual({ lineNumber: 5, column: 3 });
    expect(reveal.take('a.ts')).toEqual({ lineNumber: 5, column: 3 });
    await Promise.resolve();
    expect(reveal.take('a.ts')).toBeUndefined();
  });

  it('closing the tab forgets its reveal; a newer request replaces an older one', () => {
    const reveal = new PendingReveal();
    reveal.request('a.ts', { lineNumber: 1, column: 1 });
    reveal.request('b.ts', { lineNumber: 2, column: 1 });
    expect(reveal.take('a.ts')).toBeUndefined();
    reveal.forget('b.ts');
    expect(reveal.take('b.ts')).toBeUndefined();
    expect(reveal.seq).toBe(2);
  });
});
