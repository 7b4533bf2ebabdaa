import { describe, expect, it } from 'vitest';
import { parseRoute, sessionHash } from './route.js';

describe('hash routes', () => {
  it('parses the task list, sessions and deep links', () => {
    expect(parseRoute('')).toEqual({ name: 'tasks' });
    expect(parseRoute('#/')).toEqual({ name: 'tasks' });
    expect(parseRoute('#/sessions/abc')).toEqual({ name: 'session', sessionId: 'abc' });
    expect(parseRoute('#/sessions/a%2Fb?file=src/x.ts&line=3&column=2')).toEqual({ name: 'session', sessionId: 'a/b', file: 'src/x.ts', line: 3, column: 2 });
    expect(parseRoute('#/sessions/%E0%A4%A')).toEqual({ name: 'tasks' });
    expect(sessionHash('a/b')).toBe('#/sessions/a%2Fb');
    expect(parseRoute('#/settings')).toEqual({ name: 'settings' });
    expect(parseRoute('#/settings/')).toEqual({ name: 'settings' });
  });
});
