import { describe, expect, it } from 'vitest';
import { parseLspRoute } from './lspRoute.js';

describe('parseLspRoute', () => {
  it('reads session, language and lease hint', () => {
    expect(parseLspRoute('/lsp/abc-1?language=go&lease=xY_9-')).toEqual({ sessionId: 'abc-1', language: 'go', leaseHint: 'xY_9-' });
  });

  it('drops a malformed hint instead of refusing the stream', () => {
    expect(parseLspRoute('/lsp/s?language=go&lease=../../x')?.leaseHint).toBeUndefined();
    expect(parseLspRoute(`/lsp/s?language=go&lease=${'a'.repeat(200)}`)?.leaseHint).toBeUndefined();
  });

  it('leaves an absent language empty for admission to refuse', () => {
    expect(parseLspRoute('/lsp/s')).toEqual({ sessionId: 's', language: '', leaseHint: undefined });
  });

  it('is not an LSP route without exactly one session segment', () => {
    expect(parseLspRoute('/lsp')).toBeUndefined();
    expect(parseLspRoute('/lsp/a/b')).toBeUndefined();
    expect(parseLspRoute('/api/lsp/a')).toBeUndefined();
  });
});
