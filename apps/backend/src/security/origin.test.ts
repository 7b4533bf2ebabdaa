import { describe, expect, it } from 'vitest';
import { hostAllowed, originAllowed } from './origin.js';

const policy = { allowedOrigins: ['http://localhost:5173'], bindHost: '127.0.0.1' };

describe('originAllowed', () => {
  it('allows the same host:port as the Host header', () => {
    expect(originAllowed('http://127.0.0.1:7420', '127.0.0.1:7420', policy)).toBe(true);
    expect(originAllowed('http://LOCALHOST:7420', 'localhost:7420', policy)).toBe(true);
  });

  it('allows configured origins', () => {
    expect(originAllowed('http://localhost:5173', '127.0.0.1:7420', policy)).toBe(true);
  });

  it('treats default ports as equal', () => {
    expect(originAllowed('http://kandev.test', 'kandev.test:80', { ...policy, bindHost: '0.0.0.0' })).toBe(true);
    expect(originAllowed('https://kandev.test', 'kandev.test:443', { ...policy, bindHost: '0.0.0.0' })).toBe(true);
  });

  it('refuses other sites, other ports, opaque and non-http origins', () => {
    expect(originAllowed('http://evil.example', '127.0.0.1:7420', policy)).toBe(false);
    expect(originAllowed('http://127.0.0.1:9999', '127.0.0.1:7420', policy)).toBe(false);
    expect(originAllowed('null', '127.0.0.1:7420', policy)).toBe(false);
    expect(originAllowed('file://', '127.0.0.1:7420', policy)).toBe(false);
    expect(originAllowed('http://127.0.0.1:7420', undefined, policy)).toBe(false);
  });

  it('lets clients without an Origin through (no web page can omit it)', () => {
    expect(originAllowed(undefined, '127.0.0.1:7420', policy)).toBe(true);
  });
});

describe('hostAllowed', () => {
  it('accepts loopback names and allowed origins when bound to loopback', () => {
    for (const host of ['127.0.0.1:7420', 'localhost:7420', '[::1]:7420', 'app.localhost:7420', 'localhost:5173']) {
      expect(hostAllowed(host, policy)).toBe(true);
    }
  });

  it('refuses a DNS-rebinding name when bound to loopback', () => {
    expect(hostAllowed('evil.example:7420', policy)).toBe(false);
  });

  it('accepts any name when bound to another interface', () => {
    expect(hostAllowed('kandev.lan:7420', { ...policy, bindHost: '0.0.0.0' })).toBe(true);
  });
});
