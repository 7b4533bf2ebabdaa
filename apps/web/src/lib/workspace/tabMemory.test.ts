import { describe, expect, it } from 'vitest';
import { forgetTabs, recallTabs, rememberTabs } from './tabMemory.js';

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

describe('tab memory', () => {
  it('remembers tabs and the active one per session', () => {
    const storage = memoryStorage();
    rememberTabs(storage, 's1', { paths: ['a.ts', 'src/b.ts'], active: 'src/b.ts' });
    rememberTabs(storage, 's2', { paths: ['c.py'] });
    expect(recallTabs(storage, 's1')).toEqual({ paths: ['a.ts', 'src/b.ts'], active: 'src/b.ts' });
    expect(recallTabs(storage, 's2')).toEqual({ paths: ['c.py'] });
    expect(recallTabs(storage, 's3')).toBeUndefined();
  });

  it('forgets a session when its last tab closes or on request', () => {
    const storage = memoryStorage();
    rememberTabs(storage, 's1', { paths: ['a.ts'] });
    rememberTabs(storage, 's1', { paths: [] });
    expect(storage.map.size).toBe(0);
    rememberTabs(storage, 's1', { paths: ['a.ts'] });
    forgetTabs(storage, 's1');
    expect(recallTabs(storage, 's1')).toBeUndefined();
  });

  it('ignores damaged entries, escaping paths and an active tab that is not open', () => {
    const storage = memoryStorage();
    storage.setItem('kandev.tabs.s1', '{not json');
    expect(recallTabs(storage, 's1')).toBeUndefined();
    storage.setItem('kandev.tabs.s1', JSON.stringify({ paths: ['ok.ts', '../etc/passwd', 3, ''], active: 'gone.ts' }));
    expect(recallTabs(storage, 's1')).toEqual({ paths: ['ok.ts'] });
    const throwing = {
      getItem: () => {
        throw new Error('denied');
      },
    };
    expect(recallTabs(throwing, 's1')).toBeUndefined();
  });
});
