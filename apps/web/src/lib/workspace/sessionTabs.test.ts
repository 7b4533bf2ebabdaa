import { toDisposable } from '@kandev/kit';
import { describe, expect, it } from 'vitest';
import type { SyncedDocument } from '../lsp/documentSync.js';
import { SessionTabs } from './sessionTabs.js';

const doc = (path: string) => ({ path }) as unknown as SyncedDocument;

describe('SessionTabs', () => {
  it('a closed active tab hands activity to its right neighbour, else its left; didClose precedes the model release', () => {
    const events: string[] = [];
    const tabs = new SessionTabs(() => events.push('changed'));
    tabs.onDidOpen((d) => events.push(`open ${d.path}`));
    tabs.onDidClose((d) => events.push(`close ${d.path}`));
    for (const path of ['a', 'b', 'c'])
      tabs.add(
        path,
        toDisposable(() => events.push(`release ${path}`)),
        doc(path),
      );
    expect(events.slice(0, 2)).toEqual(['changed', 'open a']);
    tabs.activePath = 'b';
    events.length = 0;
    const b = tabs.remove('b')!;
    expect(tabs.activePath).toBe('c');
    tabs.closeDocument(b);
    expect(events).toEqual(['close b', 'release b']);
    tabs.activePath = 'c';
    tabs.closeDocument(tabs.remove('c')!);
    expect(tabs.activePath).toBe('a');
    expect(tabs.list().map((t) => t.path)).toEqual(['a']);
  });
});
