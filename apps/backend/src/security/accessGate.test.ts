import type { IncomingMessage } from 'node:http';
import { ACCESS_COOKIE } from '@kandev/protocol';
import { describe, expect, it, vi } from 'vitest';

// Records every timingSafeEqual call (and still runs the real one), to prove the gate compares
// through it, on equal-length digests, whatever the length of the guess.
const compared = vi.hoisted(() => [] as Array<[number, number]>);
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  return {
    ...real,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      compared.push([a.byteLength, b.byteLength]);
      return real.timingSafeEqual(a, b);
    },
  };
});

const { AccessGate, accessCookie, bearerToken, cookieValue } = await import('./accessGate.js');

const TOKEN = 'the-right-token-0123456789abcdef';
const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('AccessGate', () => {
  it('compares in constant time: every guess goes through timingSafeEqual on equal-length digests', () => {
    const gate = new AccessGate(TOKEN);
    compared.length = 0;
    for (const guess of ['x', TOKEN.slice(0, -1), `${TOKEN}x`, 'y'.repeat(500), TOKEN]) gate.matches(guess);
    expect(compared).toHaveLength(5);
    expect(compared.every(([a, b]) => a === 32 && b === 32)).toBe(true);
  });

  it('accepts the token as a bearer header or as the access cookie, and nothing else', () => {
    const gate = new AccessGate(TOKEN);
    expect(gate.allows(request({ authorization: `Bearer ${TOKEN}` }))).toBe(true);
    expect(gate.allows(request({ authorization: `bearer ${TOKEN}` }))).toBe(true);
    expect(gate.allows(request({ cookie: `theme=dark; ${ACCESS_COOKIE}=${TOKEN}` }))).toBe(true);
    expect(gate.allows(request({}))).toBe(false);
    expect(gate.allows(request({ authorization: `Basic ${TOKEN}` }))).toBe(false);
    expect(gate.allows(request({ authorization: 'Bearer wrong-token-0123456789' }))).toBe(false);
    expect(gate.allows(request({ cookie: `${ACCESS_COOKIE}=wrong` }))).toBe(false);
    expect(gate.allows(request({ cookie: `other_${ACCESS_COOKIE}=${TOKEN}` }))).toBe(false);
    expect(gate.matches('')).toBe(false);
    expect(gate.matches(undefined)).toBe(false);
  });

  it('parses headers strictly and builds an HttpOnly SameSite=Strict cookie', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(cookieValue(`${ACCESS_COOKIE}=old; ${ACCESS_COOKIE}=new`, ACCESS_COOKIE)).toBe('new');
    expect(accessCookie('t0k', 60)).toBe(`${ACCESS_COOKIE}=t0k; Path=/; HttpOnly; SameSite=Strict; Max-Age=60`);
  });
});
