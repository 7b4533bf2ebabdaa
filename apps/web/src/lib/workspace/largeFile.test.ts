import { LARGE_FILE_BYTES, LARGE_FILE_LINES } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { largeFileOf, mebibytes } from './largeFile.js';

describe('large-file mode', () => {
  it('an ordinary file is not large; one above the size or the line bound is, with its reason', () => {
    expect(largeFileOf('export const v = 1;\n'.repeat(40_000))).toBeUndefined();
    expect(largeFileOf('x'.repeat(LARGE_FILE_BYTES + 1))).toMatchObject({ reason: 'size', lines: 1 });
    expect(largeFileOf('\n'.repeat(LARGE_FILE_LINES))).toEqual({ reason: 'lines', size: LARGE_FILE_LINES, lines: LARGE_FILE_LINES + 1 });
  });

  it('says sizes in MiB', () => {
    expect(mebibytes(5.6 * 1024 * 1024)).toBe('5.6');
  });
});
