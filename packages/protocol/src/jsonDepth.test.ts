import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from './bounds.js';
import { nestingRefusal, parseFrame, tooDeepOutcome } from './frames.js';
import { scanJsonNesting } from './jsonDepth.js';

const nested = (depth: number, inner = '0'): string => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('scanJsonNesting', () => {
  it('accepts text exactly at the bound and refuses one level more', () => {
    expect(scanJsonNesting(nested(MAX_JSON_DEPTH)).tooDeep).toBe(false);
    expect(scanJsonNesting(nested(MAX_JSON_DEPTH + 1)).tooDeep).toBe(true);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ a: '['.repeat(10_000), b: 'x\\"[[[' });
    expect(scanJsonNesting(text).tooDeep).toBe(false);
  });

  it('measures a million levels in constant stack', () => {
    expect(scanJsonNesting(nested(1_000_000)).tooDeep).toBe(true);
  });

  it('captures primitive top-level members wherever they appear, not nested ones', () => {
    const text = `{"params":${nested(300, '{"id":99,"method":"inner"}')},"method":"textDocument/hover","id":"req-1","jsonrpc":"2.0"}`;
    expect(scanJsonNesting(text)).toMatchObject({ tooDeep: true, top: { method: '"textDocument/hover"', id: '"req-1"', jsonrpc: '"2.0"' } });
  });

  it('captures no composite id', () => {
    expect(scanJsonNesting(`{"jsonrpc":"2.0","id":{"a":1},"params":${nested(300)}}`).top.id).toBeUndefined();
  });
});

describe('parseFrame with a nesting bound', () => {
  const deep = nested(4_500);

  it('a deep request is refused with its id and method, never parsed', () => {
    expect(parseFrame(`{"jsonrpc":"2.0","id":7,"method":"x","params":${deep}}`)).toEqual({ kind: 'too_deep', id: 7, method: 'x' });
  });

  it('a deep notification and a deep response are told apart by their members', () => {
    expect(parseFrame(`{"jsonrpc":"2.0","method":"n","params":${deep}}`)).toEqual({ kind: 'too_deep', id: undefined, method: 'n' });
    expect(parseFrame(`{"jsonrpc":"2.0","id":"s1","result":${deep}}`)).toEqual({ kind: 'too_deep', id: 's1', method: undefined });
  });

  it('deep text that is not JSON-RPC 2.0 is invalid', () => {
    expect(parseFrame(deep)).toEqual({ kind: 'invalid', reason: 'too_deep' });
    expect(parseFrame(`{"jsonrpc":"1.0","id":1,"method":"x","params":${deep}}`)).toEqual({ kind: 'invalid', reason: 'too_deep' });
  });

  it('a message at the bound still parses', () => {
    expect(parseFrame(`{"jsonrpc":"2.0","method":"n","params":${nested(MAX_JSON_DEPTH - 1)}}`).kind).toBe('jsonrpc');
  });

  it('the refusal names the bound and is not a cancellation', () => {
    const refusal = nestingRefusal(3) as unknown as { error: { code: number; message: string } };
    expect(refusal.error.code).toBe(-32600);
    expect(refusal.error.message).toContain(String(MAX_JSON_DEPTH));
  });
});

describe('tooDeepOutcome', () => {
  it('answers a request, replaces a response, drops a notification or an id-less message', () => {
    expect(tooDeepOutcome({ kind: 'too_deep', id: 1, method: 'x' })).toMatchObject({ kind: 'request', reply: { id: 1, error: { code: -32600 } } });
    expect(tooDeepOutcome({ kind: 'too_deep', id: 's', method: undefined })).toMatchObject({ kind: 'response', forward: { id: 's', error: { code: -32600 } } });
    expect(tooDeepOutcome({ kind: 'too_deep', id: undefined, method: 'n' })).toEqual({ kind: 'notification' });
    expect(tooDeepOutcome({ kind: 'too_deep', id: null, method: 'x' })).toEqual({ kind: 'notification' });
  });
});
