/* eslint-disable @typescript-eslint/no-explicit-any -- test fakes and assertions, as test/** allows */
import { describe, expect, it } from 'vitest';
import type { EffectiveSync } from './capabilities.js';
import { DocumentSync } from './documentSync.js';
import { ManualClock } from '@kandev/kit';
import { FakeDocument } from './testing/fakes.js';

function setup(sync: EffectiveSync) {
  const notes: Array<{ method: string; params: any }> = [];
  const timers = new ManualClock(0);
  const ds = new DocumentSync({
    notify: (method, params) => void notes.push({ method, params }),
    sync: () => sync,
    serverUri: (p) => `file:///ws/${p}`,
    clock: timers,
    debounceMs: 100,
  });
  return { ds, notes, timers };
}

const incremental: EffectiveSync = { openClose: true, change: 2, save: { includeText: true } };

describe('DocumentSync', () => {
  it('opens with the LSP languageId and the clean server URI, sends each incremental change as it is made, closes', () => {
    const { ds, notes } = setup(incremental);
    const doc = new FakeDocument('src/a.tsx', 'typescriptreact', 'x');
    ds.open(doc);
    expect(notes[0]).toEqual({
      method: 'textDocument/didOpen',
      params: { textDocument: { uri: 'file:///ws/src/a.tsx', languageId: 'typescriptreact', version: 1, text: 'x' } },
    });
    doc.type('xy');
    doc.type('xyz');
    // One didChange per edit, no wait: the server applies each while the person types on.
    expect(notes.slice(1).map((n) => [n.method, n.params.textDocument.version, n.params.contentChanges.map((c: { text: string }) => c.text)])).toEqual([
      ['textDocument/didChange', 2, ['xy']],
      ['textDocument/didChange', 3, ['xyz']],
    ]);
    expect(notes[1]!.params.textDocument.uri).toBe('file:///ws/src/a.tsx');
    ds.close('src/a.tsx');
    expect(notes[3]).toEqual({ method: 'textDocument/didClose', params: { textDocument: { uri: 'file:///ws/src/a.tsx' } } });
  });

  it('debounces full-text changes (the whole document each time) until the typing pauses', () => {
    const { ds, notes, timers } = setup({ openClose: true, change: 1, save: false });
    const doc = new FakeDocument('a.py', 'python', 'a');
    ds.open(doc);
    doc.type('ab');
    timers.advance(60);
    doc.type('abc');
    timers.advance(60);
    expect(notes).toHaveLength(1);
    timers.advance(40);
    expect(notes.slice(1).map((n) => n.params.contentChanges)).toEqual([[{ text: 'abc' }]]);
    timers.advance(1000);
    expect(notes).toHaveLength(2);
  });

  it('sends the whole text for full sync and flushes before a request reads the document', () => {
    const { ds, notes, timers } = setup({ openClose: true, change: 1, save: false });
    const doc = new FakeDocument('a.py', 'python', 'a');
    ds.open(doc);
    doc.type('ab');
    ds.flush('a.py');
    expect(notes[1]!.params.contentChanges).toEqual([{ text: 'ab' }]);
    timers.advance(1000);
    expect(notes).toHaveLength(2);
  });

  it('S24 the final didChange precedes didSave, which carries the persisted text when includeText is requested', () => {
    const { ds, notes } = setup(incremental);
    const doc = new FakeDocument('a.ts', 'typescript', 'old');
    ds.open(doc);
    doc.type('new');
    ds.didSave('a.ts', 'new');
    expect(notes.map((n) => n.method)).toEqual(['textDocument/didOpen', 'textDocument/didChange', 'textDocument/didSave']);
    expect(notes[2]!.params).toEqual({ textDocument: { uri: 'file:///ws/a.ts' }, text: 'new' });
  });

  it('S24 without includeText the didSave has no text; without save sync there is no didSave', () => {
    const a = setup({ openClose: true, change: 2, save: { includeText: false } });
    const doc = new FakeDocument('a.ts', 'typescript', 'x');
    a.ds.open(doc);
    a.ds.didSave('a.ts', 'x');
    expect(a.notes.at(-1)).toEqual({ method: 'textDocument/didSave', params: { textDocument: { uri: 'file:///ws/a.ts' } } });
    const b = setup({ openClose: true, change: 2, save: false });
    b.ds.open(new FakeDocument('a.ts', 'typescript', 'x'));
    b.ds.didSave('a.ts', 'x');
    expect(b.notes.map((n) => n.method)).toEqual(['textDocument/didOpen']);
  });

  it('S25 a save of an older snapshot omits the stale text and never rewinds the server document', () => {
    const { ds, notes } = setup({ openClose: true, change: 1, save: { includeText: true } });
    const doc = new FakeDocument('a.ts', 'typescript', 'v1');
    ds.open(doc);
    doc.type('v2'); // the snapshot being saved
    doc.type('v3'); // typed while the save was in flight
    ds.didSave('a.ts', 'v2');
    const change = notes.find((n) => n.method === 'textDocument/didChange')!;
    expect(change.params.contentChanges.at(-1).text).toBe('v3');
    expect(notes.at(-1)).toEqual({ method: 'textDocument/didSave', params: { textDocument: { uri: 'file:///ws/a.ts' } } });
  });

  it('dispose stops tracking without notifying (the generation ended)', () => {
    const { ds, notes, timers } = setup({ openClose: true, change: 1, save: false });
    const doc = new FakeDocument('a.ts', 'typescript', 'x');
    ds.open(doc);
    doc.type('y');
    ds.dispose();
    timers.advance(1000);
    doc.type('z');
    expect(notes.map((n) => n.method)).toEqual(['textDocument/didOpen']);
  });
});
