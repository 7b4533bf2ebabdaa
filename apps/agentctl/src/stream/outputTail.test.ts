import { describe, expect, it } from 'vitest';
import { tailUtf8 } from './outputTail.js';

describe('installer output tail', () => {
  it('keeps the last bytes on character boundaries', () => {
    expect(tailUtf8('abcdef', 3)).toBe('def');
    expect(tailUtf8('ab🚀', 4)).toBe('🚀');
    expect(tailUtf8('ab🚀', 3)).toBe('');
    expect(tailUtf8('é'.repeat(10), 5)).toBe('éé');
  });
});
