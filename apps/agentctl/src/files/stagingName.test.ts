import { describe, expect, it } from 'vitest';
import { isStagingPath, stagingName } from './stagingName.js';

describe('staged save names', () => {
  it('a staging name is recognized wherever it lies, and ordinary files that look alike are not', () => {
    const name = stagingName('/ws/src/main.ts');
    expect(name).toMatch(/^\.main\.ts\.kandev-[0-9a-f]{12}\.tmp$/);
    expect(isStagingPath(name)).toBe(true);
    expect(isStagingPath(`src/${name}`)).toBe(true);
    expect(isStagingPath('src/main.ts')).toBe(false);
    expect(isStagingPath('notes.kandev-0123456789ab.tmp')).toBe(false); // not hidden: a person's file
    expect(isStagingPath('.main.ts.kandev-xyz.tmp')).toBe(false);
  });
});
