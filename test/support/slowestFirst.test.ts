import { describe, expect, it } from 'vitest';
import { slowestFirst } from './slowestFirst.js';

describe('slowest-first order of the process suites', () => {
  it('puts the longest recorded file first and a file with no record before all of them', () => {
    const seconds = { 'test/e2e/a.test.ts': 16.6, 'test/e2e/b.test.ts': 89, 'test/e2e/c.test.ts': 7.4 };
    expect(slowestFirst(['test/e2e/a.test.ts', 'test/e2e/new.test.ts', 'test/e2e/b.test.ts', 'test/e2e/c.test.ts'], seconds)).toEqual([
      'test/e2e/new.test.ts',
      'test/e2e/b.test.ts',
      'test/e2e/a.test.ts',
      'test/e2e/c.test.ts',
    ]);
  });
});
