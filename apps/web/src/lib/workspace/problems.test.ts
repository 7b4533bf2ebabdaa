import { describe, expect, it } from 'vitest';
import { problemsOf, type MarkerLike } from './problems.js';

const marker = (sessionId: string, path: string, over: Partial<MarkerLike> = {}): MarkerLike => ({
  resource: { scheme: 'kandev-session', authority: sessionId, path: `/${path}` },
  owner: 'kandev-lsp.typescript.1',
  severity: 8,
  message: 'boom',
  startLineNumber: 1,
  startColumn: 1,
  endLineNumber: 1,
  endColumn: 2,
  ...over,
});

describe('problemsOf', () => {
  it("groups the session's language-server markers by open file, errors first, with counts", () => {
    const view = problemsOf(
      [
        marker('s1', 'b.ts', { severity: 4, message: 'warn', startLineNumber: 3 }),
        marker('s1', 'b.ts', { severity: 8, message: 'err', startLineNumber: 9, code: { value: '2322' }, source: 'ts' }),
        marker('s1', 'a.ts', { severity: 1, message: 'hint' }),
        marker('s1', 'c.py', { severity: 2, message: 'info', owner: 'kandev-lsp.python.2' }),
      ],
      's1',
      new Set(['a.ts', 'b.ts', 'c.py']),
    );
    expect(view.groups.map((g) => g.path)).toEqual(['b.ts', 'a.ts', 'c.py']);
    expect(view.groups[0]?.problems.map((p) => p.message)).toEqual(['err', 'warn']);
    expect(view.groups[0]?.problems[0]).toMatchObject({ code: '2322', source: 'ts', severity: 'error' });
    expect(view.counts).toEqual({ error: 1, warning: 1, info: 1, hint: 1 });
    expect(view.total).toBe(4);
  });

  it("never shows another session, a closed file, or Monaco's own TypeScript markers", () => {
    const view = problemsOf(
      [
        marker('s2', 'a.ts'),
        marker('s1', 'closed.ts'),
        marker('s1', 'a.ts', { owner: 'typescript' }),
        { ...marker('s1', 'a.ts'), resource: { scheme: 'file', authority: '', path: '/a.ts' } },
      ],
      's1',
      new Set(['a.ts']),
    );
    expect(view).toEqual({ groups: [], counts: { error: 0, warning: 0, info: 0, hint: 0 }, total: 0 });
  });
});
