import { ManualClock } from '@kandev/kit';
import { describe, expect, it } from 'vitest';
import { formatBeforeSave, type FormattableModel } from './formatOnSave.js';
import { DEFAULT_PREFERENCES } from './preferences.js';

const on = { ...DEFAULT_PREFERENCES, formatOnSave: true };
const edit = [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } }, newText: 'x' }];

function model(version = 1) {
  const applied: unknown[] = [];
  const m: FormattableModel & { version: number } = {
    version,
    getVersionId: () => m.version,
    getOptions: () => ({ tabSize: 2, insertSpaces: true }),
    applyEdits: (edits) => void applied.push(edits),
  };
  return { m, applied };
}

describe('format on save', () => {
  it('off by default; when on, the server formatter edits the model with the editor options', async () => {
    const { m, applied } = model();
    const seen: unknown[] = [];
    expect(await formatBeforeSave('a.ts', m, DEFAULT_PREFERENCES, [async () => edit])).toBe(false);
    expect(await formatBeforeSave('a.ts', m, on, [async (_p, o) => (seen.push(o), edit)])).toBe(true);
    expect(seen).toEqual([{ tabSize: 2, insertSpaces: true }]);
    expect(applied).toEqual([edit]);
  });

  it('dropped when the person typed meanwhile or when the formatter fails', async () => {
    const { m, applied } = model();
    expect(await formatBeforeSave('a.ts', m, on, [async () => ((m.version = 2), edit)])).toBe(false);
    expect(await formatBeforeSave('a.ts', m, on, [async () => Promise.reject(new Error('gone'))])).toBe(false);
    expect(applied).toEqual([]);
  });

  it('a formatter that never answers lets the save go at the time bound on the injected clock', async () => {
    const { m, applied } = model();
    const clock = new ManualClock();
    let outcome: boolean | undefined;
    const saving = formatBeforeSave('a.ts', m, on, [() => new Promise(() => undefined)], 3_000, clock).then((r) => (outcome = r));
    clock.advance(2_999);
    await Promise.resolve();
    expect(outcome).toBeUndefined();
    clock.advance(1);
    await saving;
    expect(outcome).toBe(false);
    expect(clock.pending).toBe(0);
    expect(applied).toEqual([]);
  });
});
