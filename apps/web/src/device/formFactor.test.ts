import { describe, expect, it } from 'vitest';
import { formFactor, PHONE_QUERY } from './formFactor.js';

describe('form factor', () => {
  it('S58 a narrow coarse-pointer viewport is a phone; wide coarse is a tablet; fine is a desktop', () => {
    expect(formFactor((q) => q === PHONE_QUERY || q === '(pointer: coarse)')).toBe('phone');
    expect(formFactor((q) => q === '(pointer: coarse)')).toBe('tablet');
    expect(formFactor(() => false)).toBe('desktop');
  });
});
