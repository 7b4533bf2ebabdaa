import { describe, expect, it } from 'vitest';
import { chooseEncoding } from './contentEncoding.js';

describe('Accept-Encoding negotiation', () => {
  const both = ['br', 'gzip'] as const;

  it('prefers brotli, then gzip, then identity', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd', both)).toBe('br');
    expect(chooseEncoding('gzip, deflate', both)).toBe('gzip');
    expect(chooseEncoding('deflate', both)).toBe('identity');
    expect(chooseEncoding(undefined, both)).toBe('identity');
    expect(chooseEncoding('', both)).toBe('identity');
  });

  it('serves only representations that exist', () => {
    expect(chooseEncoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(chooseEncoding('br, gzip', [])).toBe('identity');
  });

  it('honours weights, q=0 refusals and the wildcard', () => {
    expect(chooseEncoding('br;q=0.5, gzip;q=0.9', both)).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip', both)).toBe('gzip');
    expect(chooseEncoding('br; q=0, gzip;q=0', both)).toBe('identity');
    expect(chooseEncoding('*', both)).toBe('br');
    expect(chooseEncoding('*;q=0, gzip', both)).toBe('gzip');
    expect(chooseEncoding('x-gzip', both)).toBe('gzip');
    expect(chooseEncoding('BR', both)).toBe('br');
    expect(chooseEncoding('br;q=abc', both)).toBe('br'); // a malformed weight is ignored
  });
});
