import { describe, expect, it } from 'vitest';
import { FakeUri } from '../testing/fakeMonaco.js';
import { toMarkerData } from './diagnostics.js';
import { toMonacoHover } from './hover.js';
import { locationTargets, toMonacoLocations } from './locations.js';
import { escapeMarkdown } from './markdown.js';
import { toMonacoSemanticTokens } from './semanticTokens.js';
import { toLspSignatureHelpContext, toMonacoSignatureHelp } from './signatureHelp.js';
import type { MonacoUri } from './host.js';

const range = { start: { line: 0, character: 4 }, end: { line: 0, character: 9 } };
const monacoRange = { startLineNumber: 1, startColumn: 5, endLineNumber: 1, endColumn: 10 };
const toModelUri = (u: string) =>
  (u.startsWith('file:///ws/') ? new FakeUri('kandev-session', 's1', u.slice('file:///ws'.length)) : FakeUri.parse(u)) as unknown as MonacoUri;

describe('hover', () => {
  it('maps MarkupContent, MarkedString with language, and plain MarkedString arrays', () => {
    expect(toMonacoHover({ contents: { kind: 'markdown', value: '**x**' }, range })).toEqual({ contents: [{ value: '**x**' }], range: monacoRange });
    expect(toMonacoHover({ contents: { kind: 'plaintext', value: 'a*b' } })).toEqual({ contents: [{ value: 'a\\*b' }] });
    expect(toMonacoHover({ contents: [{ language: 'ts', value: 'const x: number' }, 'docs'] })).toEqual({
      contents: [{ value: '```ts\nconst x: number\n```' }, { value: 'docs' }],
    });
    expect(toMonacoHover({ contents: '' })).toBeNull();
    expect(toMonacoHover(null)).toBeNull();
    expect(escapeMarkdown('_a_')).toBe('\\_a\\_');
  });
});

describe('definition and references', () => {
  it('maps Location and LocationLink, with server URIs back to the session models', () => {
    const locations = toMonacoLocations([{ uri: 'file:///ws/src/b.ts', range }], toModelUri);
    expect(locations).toHaveLength(1);
    expect(String(locations[0]!.uri)).toBe('kandev-session://s1/src/b.ts');
    expect(locations[0]!.range).toEqual(monacoRange);
    const links = toMonacoLocations(
      [{ targetUri: 'file:///ws/lib/c.ts', targetRange: range, targetSelectionRange: range, originSelectionRange: range }],
      toModelUri,
    );
    expect(links[0]).toMatchObject({ range: monacoRange, targetSelectionRange: monacoRange, originSelectionRange: monacoRange });
    expect(String(links[0]!.uri)).toBe('kandev-session://s1/lib/c.ts');
    expect(String(toMonacoLocations({ uri: 'file:///usr/lib/node/x.d.ts', range }, toModelUri)[0]!.uri)).toBe('file:///usr/lib/node/x.d.ts');
    expect(toMonacoLocations(null, toModelUri)).toEqual([]);
    expect(
      locationTargets([
        { uri: 'file:///ws/a', range },
        { uri: 'file:///ws/a', range },
      ]),
    ).toEqual(['file:///ws/a']);
  });
});

describe('signature help', () => {
  it('maps results with label offsets and per-signature active parameter; empty -> null', () => {
    const result = toMonacoSignatureHelp({
      signatures: [
        {
          label: 'f(a, b)',
          documentation: { kind: 'markdown', value: 'doc' },
          parameters: [{ label: [2, 3] }, { label: 'b', documentation: 'bee' }],
          activeParameter: 1,
        },
      ],
      activeSignature: 0,
    });
    expect(result!.value).toEqual({
      activeSignature: 0,
      activeParameter: 0,
      signatures: [
        { label: 'f(a, b)', documentation: { value: 'doc' }, parameters: [{ label: [2, 3] }, { label: 'b', documentation: 'bee' }], activeParameter: 1 },
      ],
    });
    expect(toMonacoSignatureHelp({ signatures: [] })).toBeNull();
    expect(toMonacoSignatureHelp(null)).toBeNull();
  });

  it('S21 retrigger context carries the trigger character and the active help in LSP form', () => {
    expect(
      toLspSignatureHelpContext({
        triggerKind: 2,
        triggerCharacter: ',',
        isRetrigger: true,
        activeSignatureHelp: {
          signatures: [{ label: 'f(a)', parameters: [{ label: 'a', documentation: { value: 'x' } }] }],
          activeSignature: 0,
          activeParameter: 0,
        },
      } as never),
    ).toEqual({
      triggerKind: 2,
      triggerCharacter: ',',
      isRetrigger: true,
      activeSignatureHelp: {
        signatures: [{ label: 'f(a)', documentation: undefined, parameters: [{ label: 'a', documentation: { kind: 'markdown', value: 'x' } }] }],
        activeSignature: 0,
        activeParameter: 0,
      },
    });
  });
});

describe('semantic tokens', () => {
  it('S17 a valid empty token array is a completed empty payload, not "no result"', () => {
    const empty = toMonacoSemanticTokens({ data: [] });
    expect(empty).not.toBeNull();
    expect(empty!.data).toBeInstanceOf(Uint32Array);
    expect(empty!.data.length).toBe(0);
    expect(toMonacoSemanticTokens({ resultId: '3', data: [0, 1, 2, 3, 0] })).toEqual({ resultId: '3', data: Uint32Array.from([0, 1, 2, 3, 0]) });
    expect(toMonacoSemanticTokens(null)).toBeNull();
  });
});

describe('diagnostics', () => {
  it('maps severity, code with description, tags and relatedInformation onto session URIs', () => {
    const marker = toMarkerData(
      {
        range,
        severity: 2,
        message: 'unused',
        source: 'ts',
        code: 6133,
        codeDescription: { href: 'https://example.invalid/6133' },
        tags: [1, 2],
        relatedInformation: [{ location: { uri: 'file:///ws/b.ts', range }, message: 'declared here' }],
      },
      toModelUri,
      (u) => FakeUri.parse(u) as unknown as MonacoUri,
    );
    expect(marker).toMatchObject({ severity: 4, message: 'unused', source: 'ts', tags: [1, 2], ...monacoRange });
    expect((marker.code as { value: string }).value).toBe('6133');
    expect(String(marker.relatedInformation![0]!.resource)).toBe('kandev-session://s1/b.ts');
    expect(toMarkerData({ range, message: 'm' }, toModelUri, toModelUri).severity).toBe(8);
    expect(toMarkerData({ range, message: 'm', severity: 3 }, toModelUri, toModelUri).severity).toBe(2);
    expect(toMarkerData({ range, message: 'm', severity: 4 }, toModelUri, toModelUri).severity).toBe(1);
  });
});
