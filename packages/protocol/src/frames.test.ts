import { describe, expect, it } from 'vitest';
import { CloseCode, isSendableCloseCode, normalizeCloseCode } from './closeCodes.js';
import { parseFrame } from './frames.js';

describe('parseFrame', () => {
  it('classifies JSON-RPC, status and control frames', () => {
    expect(parseFrame('{"jsonrpc":"2.0","id":1,"method":"x"}').kind).toBe('jsonrpc');
    expect(parseFrame('{"status":"synchronized"}').kind).toBe('status');
    expect(parseFrame('{"control":"attachment-ready"}').kind).toBe('control');
    expect(parseFrame('{"control":"release","reason":"stop"}').kind).toBe('control');
    expect(parseFrame('{"control":"release-stream"}')).toEqual({ kind: 'control', frame: { control: 'release-stream' } });
    expect(parseFrame('{"status":"reaped","clean":true}')).toEqual({ kind: 'status', frame: { status: 'reaped', clean: true } });
  });

  it('turns bad input into a value instead of throwing', () => {
    expect(parseFrame('{not json')).toEqual({ kind: 'invalid', reason: 'not_json' });
    expect(parseFrame('[1,2]')).toEqual({ kind: 'invalid', reason: 'not_an_object' });
    expect(parseFrame('null')).toEqual({ kind: 'invalid', reason: 'not_an_object' });
    expect(parseFrame('{"jsonrpc":"1.0"}')).toEqual({ kind: 'invalid', reason: 'unknown_shape' });
    expect(parseFrame('{"control":"release","reason":"because"}')).toEqual({ kind: 'invalid', reason: 'unknown_shape' });
  });
});

describe('close codes', () => {
  it('normalizes reserved and unknown codes to a transport failure', () => {
    for (const reserved of [1005, 1006, 1015, 1011, 3000]) expect(normalizeCloseCode(reserved)).toBe(CloseCode.TransportFailure);
    expect(normalizeCloseCode(4006)).toBe(CloseCode.ServerExited);
    expect(normalizeCloseCode(1000)).toBe(CloseCode.Normal);
  });

  it('never allows a reserved code in a close frame', () => {
    for (const reserved of [1005, 1006, 1015]) expect(isSendableCloseCode(reserved)).toBe(false);
    expect(isSendableCloseCode(4005)).toBe(true);
  });
});
