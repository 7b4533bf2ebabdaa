import { describe, expect, it } from 'vitest';
import { ResponseError } from './jsonRpc.js';
import { availableActions, closeMessageKey, decideClose, initializeFailureMessage, longInitializeNotice } from './status.js';

const base = { language: 'python' as const, stopRequested: false, canReconnect: true };

describe('close codes -> state', () => {
  it('S04 4001 is unavailable with the localized missing-server message and enable-auto-install guidance, never the transport reason', () => {
    expect(decideClose(4001, base)).toEqual({
      kind: 'unavailable',
      message: { key: 'close.4001', params: { language: 'python' } },
      guidance: 'enableAutoInstall',
      leaseEnded: true,
    });
    expect(availableActions({ state: 'unavailable', guidance: 'enableAutoInstall', generation: 1 })).toEqual({ start: false, stop: false, retry: true });
  });
  it('S12 4003 after install_failed keeps the detailed installer error visible', () => {
    expect(decideClose(4003, { ...base, installError: 'npm ERR! 404 pyright@9' })).toMatchObject({
      kind: 'error',
      message: { text: 'npm ERR! 404 pyright@9' },
    });
  });
  it('S13 4003 without a detailed payload renders the localized install-failure fallback', () => {
    expect(decideClose(4003, base)).toMatchObject({ kind: 'error', message: { key: 'close.4003' } });
  });
  it('S03 4007 for Kotlin uses Kotlin-specific manual setup guidance', () => {
    expect(decideClose(4007, { ...base, language: 'kotlin' })).toMatchObject({
      kind: 'unavailable',
      message: { key: 'close.4007Kotlin' },
      guidance: 'kotlinManualSetup',
    });
    expect(decideClose(4007, { ...base, language: 'rust' })).toMatchObject({ kind: 'unavailable', message: { key: 'close.4007' }, guidance: 'manualInstall' });
    expect(decideClose(4007, { ...base, language: 'cpp' })).toMatchObject({
      kind: 'unavailable',
      message: { key: 'close.4007Clangd' },
      guidance: 'clangdManualSetup',
    });
  });
  it('S26 4004 is unavailable with executor guidance and no action that could not help', () => {
    expect(decideClose(4004, base)).toMatchObject({ kind: 'unavailable', message: { key: 'close.4004' }, guidance: 'unsupportedExecutor' });
    expect(availableActions({ state: 'unavailable', guidance: 'unsupportedExecutor', generation: 1 })).toEqual({ start: false, stop: false, retry: false });
  });
  it('S28 4008 shows the localized start-failure status', () => {
    expect(decideClose(4008, base)).toMatchObject({ kind: 'error', message: { key: 'close.4008' } });
  });
  it('S31 4006 is the server-exited error (Retry), not Off', () => {
    const decision = decideClose(4006, base);
    expect(decision).toMatchObject({ kind: 'error', message: { key: 'close.4006' }, leaseEnded: true });
    expect(availableActions({ state: 'error', generation: 1 })).toEqual({ start: false, stop: false, retry: true });
  });
  it('S56 1001 uses localized connection-close copy', () => {
    expect(decideClose(1001, base)).toMatchObject({ kind: 'error', message: { key: 'close.1001' } });
  });
  it('C05 transport failures (4009 and reserved 1006) reconnect while attempts remain, then show localized copy', () => {
    expect(decideClose(1006, base)).toEqual({ kind: 'reconnect' });
    expect(decideClose(4009, base)).toEqual({ kind: 'reconnect' });
    expect(decideClose(1006, { ...base, canReconnect: false })).toMatchObject({ kind: 'error', message: { key: 'close.connectionLost' }, leaseEnded: false });
    expect(decideClose(4009, { ...base, canReconnect: false })).toMatchObject({ kind: 'error', message: { key: 'close.4009' } });
  });
  it('every close code maps to its own localized copy and the right action', () => {
    const expected: Record<number, { kind: string; retry: boolean }> = {
      1001: { kind: 'error', retry: true },
      4001: { kind: 'unavailable', retry: true },
      4002: { kind: 'error', retry: true },
      4003: { kind: 'error', retry: true },
      4004: { kind: 'unavailable', retry: false },
      4005: { kind: 'error', retry: true },
      4006: { kind: 'error', retry: true },
      4007: { kind: 'unavailable', retry: true },
      4008: { kind: 'error', retry: true },
    };
    for (const [code, want] of Object.entries(expected)) {
      const d = decideClose(Number(code), base);
      expect(d.kind, code).toBe(want.kind);
      if (d.kind !== 'error' && d.kind !== 'unavailable') throw new Error('unexpected');
      expect(d.message, code).toEqual({ key: `close.${code}`, params: { language: 'python' } });
      expect(availableActions({ state: d.kind, guidance: d.guidance, generation: 1 }).retry, code).toBe(want.retry);
    }
  });
  it('lifecycle actions: Start when off, Stop while running, none while stopping', () => {
    expect(availableActions({ state: 'off', generation: 0 })).toEqual({ start: true, stop: false, retry: false });
    for (const state of ['connecting', 'installing', 'starting', 'ready', 'reconnecting'] as const) {
      expect(availableActions({ state, generation: 1 }), state).toEqual({ start: false, stop: true, retry: false });
    }
    expect(availableActions({ state: 'stopping', generation: 1 })).toEqual({ start: false, stop: false, retry: false });
  });
  it('a requested release ends Off whatever the code; 4002, 4004 and 4005 have their own copy', () => {
    expect(decideClose(1006, { ...base, stopRequested: true })).toEqual({ kind: 'off' });
    expect(decideClose(1000, base)).toEqual({ kind: 'off' });
    for (const code of [4002, 4004, 4005]) expect(closeMessageKey(code, 'go')).toBe(`close.${code}`);
    expect(closeMessageKey(1015, 'go')).toBe('close.connectionLost');
  });
  it('S29 an initialize rejected with a JSON-RPC error shows error.message; anything else is localized', () => {
    expect(initializeFailureMessage(new ResponseError(-32603, 'Cannot find tsconfig'))).toEqual({ text: 'Cannot find tsconfig' });
    expect(initializeFailureMessage(new ResponseError(-32603, ''))).toEqual({ key: 'message.initializeFailed' });
    expect(initializeFailureMessage({ message: { nested: true } })).toEqual({ key: 'message.initializeFailed' });
    expect(initializeFailureMessage(new Error('TypeError at x.js:1'))).toEqual({ key: 'message.initializeFailed' });
  });
});

describe('long initialize notice (fake clock values)', () => {
  const starting = { state: 'starting' as const, phase: 'awaitingInitialize' as const, since: 1_000, generation: 1 };
  it('S41 after 60 s without an initialize answer Kotlin names the Gradle import; nothing before', () => {
    expect(longInitializeNotice(starting, 'kotlin', 1_000 + 59_999)).toBeUndefined();
    expect(longInitializeNotice(starting, 'kotlin', 1_000 + 60_000)).toEqual({ key: 'notice.longInitializeKotlin', params: { language: 'kotlin' } });
    expect(longInitializeNotice(starting, 'go', 1_000 + 600_000)).toEqual({ key: 'notice.longInitialize', params: { language: 'go' } });
  });
  it('S41 the notice never shows once ready, while installing or reattaching, and Stop stays available', () => {
    expect(longInitializeNotice({ ...starting, state: 'ready' }, 'kotlin', 10_000_000)).toBeUndefined();
    expect(longInitializeNotice({ ...starting, phase: 'synchronizing' }, 'kotlin', 10_000_000)).toBeUndefined();
    expect(longInitializeNotice({ ...starting, state: 'installing', phase: undefined }, 'kotlin', 10_000_000)).toBeUndefined();
    expect(availableActions(starting).stop).toBe(true);
  });
});
