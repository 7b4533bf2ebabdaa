import { describe, expect, it } from 'vitest';
import { ResponseError } from './jsonRpc.js';
import { availableActions, closeMessageKey, decideClose, initializeFailureMessage } from './status.js';

const base = { language: 'python' as const, stopRequested: false, canReconnect: true };

describe('close codes -> state', () => {
  it('S04 4001 shows the localized missing-server message, never the transport reason', () => {
    expect(decideClose(4001, base)).toEqual({ kind: 'error', message: { key: 'close.4001', params: { language: 'python' } }, leaseEnded: true });
  });
  it('S12 4003 after install_failed keeps the detailed installer error visible', () => {
    expect(decideClose(4003, { ...base, installError: 'npm ERR! 404 pyright@9' })).toMatchObject({ kind: 'error', message: { text: 'npm ERR! 404 pyright@9' } });
  });
  it('S13 4003 without a detailed payload renders the localized install-failure fallback', () => {
    expect(decideClose(4003, base)).toMatchObject({ kind: 'error', message: { key: 'close.4003' } });
  });
  it('S03 4007 for Kotlin uses Kotlin-specific manual setup guidance', () => {
    expect(decideClose(4007, { ...base, language: 'kotlin' })).toMatchObject({ message: { key: 'close.4007Kotlin' } });
    expect(decideClose(4007, { ...base, language: 'rust' })).toMatchObject({ message: { key: 'close.4007' } });
  });
  it('S28 4008 shows the localized start-failure status', () => {
    expect(decideClose(4008, base)).toMatchObject({ kind: 'error', message: { key: 'close.4008' } });
  });
  it('S31 4006 is the server-exited error (Retry), not Off', () => {
    const decision = decideClose(4006, base);
    expect(decision).toMatchObject({ kind: 'error', message: { key: 'close.4006' }, leaseEnded: true });
    expect(availableActions({ state: 'error', stopping: false, generation: 1 })).toEqual({ start: false, stop: false, retry: true });
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
