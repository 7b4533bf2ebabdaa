import { describe, expect, it } from 'vitest';
import { decodePrimitive, readEnvelope, spliceId } from './envelope.js';
import { scanJsonNesting } from './jsonDepth.js';

const envelopeOf = (text: string) => readEnvelope(scanJsonNesting(text));

/** Replaces the id through the scanner's span, and checks the result against a decode/encode. */
function spliced(text: string, id: string | number): string {
  const envelope = envelopeOf(text);
  if (!envelope?.idSpan) throw new Error(`no usable id in ${text}`);
  const out = spliceId(text, envelope.idSpan, id);
  expect(JSON.parse(out)).toEqual({ ...JSON.parse(text), id });
  return out;
}

describe('spliceId', () => {
  it.each([
    ['an integer', '{"jsonrpc":"2.0","id":7,"method":"m"}', 1234, '{"jsonrpc":"2.0","id":1234,"method":"m"}'],
    ['a negative number with an exponent', '{"jsonrpc":"2.0","id":-1.5e3,"result":null}', 2, '{"jsonrpc":"2.0","id":2,"result":null}'],
    ['zero', '{"id":0,"jsonrpc":"2.0","result":1}', 'a', '{"id":"a","jsonrpc":"2.0","result":1}'],
    ['a string', '{"jsonrpc":"2.0","id":"req-1","method":"m"}', 9, '{"jsonrpc":"2.0","id":9,"method":"m"}'],
    ['a string with escaped quotes and backslashes', '{"jsonrpc":"2.0","id":"a\\"b\\\\","method":"m"}', 3, '{"jsonrpc":"2.0","id":3,"method":"m"}'],
    ['a string ending in an escaped backslash', '{"id":"x\\\\","jsonrpc":"2.0","result":{}}', 'q"\\', '{"id":"q\\"\\\\","jsonrpc":"2.0","result":{}}'],
    ['a unicode-escaped string', '{"jsonrpc":"2.0","id":"\\u00e9\\u2028","method":"m"}', 'é', '{"jsonrpc":"2.0","id":"é","method":"m"}'],
    ['the id last', '{"jsonrpc":"2.0","method":"m","params":{},"id":5}', 6, '{"jsonrpc":"2.0","method":"m","params":{},"id":6}'],
  ])('replaces %s and nothing else', (_what, text, id, expected) => {
    expect(spliced(text, id)).toBe(expected);
  });

  it.each([
    ['spaces around the colon and value', '{ "jsonrpc" : "2.0" , "id" :  42  , "method" : "m" }', '{ "jsonrpc" : "2.0" , "id" :  7  , "method" : "m" }'],
    ['newlines and tabs', '{\n\t"jsonrpc": "2.0",\n\t"id":\n\t\t42\n,\t"result": null\n}', '{\n\t"jsonrpc": "2.0",\n\t"id":\n\t\t7\n,\t"result": null\n}'],
    ['whitespace before the closing brace', '{"jsonrpc":"2.0","result":1,"id":42 \r\n}', '{"jsonrpc":"2.0","result":1,"id":7 \r\n}'],
  ])('keeps the whitespace around the id (%s)', (_what, text, expected) => {
    expect(spliced(text, 7)).toBe(expected);
  });

  it('leaves ids inside params strings alone', () => {
    const text = '{"jsonrpc":"2.0","method":"m","params":{"text":"\\"id\\":1, {\\"id\\":2}"},"id":3}';
    expect(spliced(text, 99)).toBe('{"jsonrpc":"2.0","method":"m","params":{"text":"\\"id\\":1, {\\"id\\":2}"},"id":99}');
  });

  it('leaves nested "id" keys in params and results alone', () => {
    const text = '{"jsonrpc":"2.0","params":{"id":1,"items":[{"id":"x"},{"deep":{"id":2}}]},"id":"outer","method":"m"}';
    expect(spliced(text, 5)).toBe('{"jsonrpc":"2.0","params":{"id":1,"items":[{"id":"x"},{"deep":{"id":2}}]},"id":5,"method":"m"}');
    const response = '{"jsonrpc":"2.0","result":{"id":1,"contents":"id: 2"},"id":10}';
    expect(spliced(response, 11)).toBe('{"jsonrpc":"2.0","result":{"id":1,"contents":"id: 2"},"id":11}');
  });

  it('keeps multi-byte text around the id intact', () => {
    const text = '{"jsonrpc":"2.0","method":"m","params":{"s":"日本語 😀"},"id":1}';
    expect(spliced(text, 2)).toBe('{"jsonrpc":"2.0","method":"m","params":{"s":"日本語 😀"},"id":2}');
  });
});

describe('decodePrimitive', () => {
  it('reads what JSON.parse reads, and nothing it refuses', () => {
    for (const raw of [
      '"abc"',
      '""',
      '"a\\"b"',
      '"\\u00e9"',
      '0',
      '-12',
      '123456789012345',
      '1.5',
      '1e3',
      '-0',
      'true',
      'null',
      '"x"y"',
      '"a\tb"',
      '01',
      '"',
    ]) {
      let expected: unknown;
      try {
        expected = JSON.parse(raw);
      } catch {
        expected = undefined;
      }
      expect(decodePrimitive(raw), raw).toEqual(expected);
    }
  });
});

describe('readEnvelope', () => {
  it('reads a request, a notification and a response', () => {
    expect(envelopeOf('{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{"id":9}}')).toMatchObject({
      id: 1,
      method: 'textDocument/hover',
      isResponse: false,
      hasIdMember: true,
    });
    expect(envelopeOf('{"jsonrpc":"2.0","method":"window/logMessage","params":{"id":9,"method":"x"}}')).toEqual({
      method: 'window/logMessage',
      isResponse: false,
      hasIdMember: false,
    });
    expect(envelopeOf('{"jsonrpc":"2.0","id":"r","error":{"code":1,"message":"m"}}')).toMatchObject({ id: 'r', isResponse: true, hasIdMember: true });
    expect(envelopeOf('{"jsonrpc":"2.0","id":"r","result":null}')?.method).toBeUndefined();
  });

  it('marks an id it cannot splice: composite, null, boolean, repeated with a composite last', () => {
    for (const text of [
      '{"jsonrpc":"2.0","id":{"a":1},"method":"m"}',
      '{"jsonrpc":"2.0","id":[1],"method":"m"}',
      '{"jsonrpc":"2.0","id":null,"method":"m"}',
      '{"jsonrpc":"2.0","id":true,"method":"m"}',
    ]) {
      const envelope = envelopeOf(text);
      expect(envelope, text).toMatchObject({ hasIdMember: true, method: 'm' });
      expect(envelope?.id, text).toBeUndefined();
      expect(envelope?.idSpan, text).toBeUndefined();
    }
  });

  it('has no envelope for text that is not one balanced JSON-RPC 2.0 object', () => {
    for (const text of [
      '',
      'hello',
      '{not json',
      '[{"jsonrpc":"2.0","method":"x"}]',
      '"x"',
      '7',
      '{"jsonrpc":"1.0","method":"x"}',
      '{"method":"x"}',
      '{"control":"attachment-ready"}',
      '{"status":"ready"}',
      '{"jsonrpc":"2.0","method":"x"',
      '{"jsonrpc":"2.0","method":"x"}}',
      '{"jsonrpc":"2.0","method":"x"} {}',
      '{"jsonrpc":"2.0","method":"x","params":"unterminated}',
      `{"jsonrpc":"2.0","method":"x","params":${'['.repeat(300)}${']'.repeat(300)}}`,
    ]) {
      expect(envelopeOf(text), text).toBeUndefined();
    }
  });

  it('has none when a routing key repeats (parsers disagree on which one wins)', () => {
    expect(envelopeOf('{"jsonrpc":"2.0","id":1,"method":"m","id":2}')).toBeUndefined();
    expect(envelopeOf('{"jsonrpc":"2.0","method":"initialize","method":"textDocument/hover"}')).toBeUndefined();
    expect(envelopeOf('{"jsonrpc":"2.0","id":1,"result":1,"result":2}')).toBeUndefined();
    // Repeats elsewhere are the decoder's business, not routing's.
    expect(envelopeOf('{"jsonrpc":"2.0","method":"m","params":{"a":1,"a":2}}')).toEqual({ method: 'm', isResponse: false, hasIdMember: false });
  });

  it('has none when a top-level key is escaped (JSON.parse would read a member the scan did not)', () => {
    expect(envelopeOf('{"jsonrpc":"2.0","id":1,"\\u0069d":2,"method":"m"}')).toBeUndefined();
    expect(envelopeOf('{"jsonrpc":"2.0","\\u006dethod":"m"}')).toBeUndefined();
    // Escapes inside nested keys or values change nothing at the top.
    expect(envelopeOf('{"jsonrpc":"2.0","method":"m","params":{"\\u0069d":"\\u0069"}}')).toEqual({ method: 'm', isResponse: false, hasIdMember: false });
  });

  it('accepts whitespace around the object', () => {
    expect(envelopeOf(' \n{"jsonrpc":"2.0","method":"x"}\r\n ')).toEqual({ method: 'x', isResponse: false, hasIdMember: false });
  });
});
