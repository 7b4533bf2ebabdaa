import { describe, expect, it } from 'vitest';
import { parseStreamParams } from './params.js';

describe('stream parameters', () => {
  it('accepts catalog languages and true/false auto-install, refusing anything else', () => {
    expect(parseStreamParams(new URLSearchParams('language=go&autoInstall=true'))).toEqual({ ok: true, params: { language: 'go', autoInstall: true } });
    expect(parseStreamParams(new URLSearchParams('language=kotlin'))).toEqual({ ok: true, params: { language: 'kotlin', autoInstall: false } });
    expect(parseStreamParams(new URLSearchParams('language=cobol')).ok).toBe(false);
    expect(parseStreamParams(new URLSearchParams('')).ok).toBe(false);
    expect(parseStreamParams(new URLSearchParams('language=go&autoInstall=1')).ok).toBe(false);
  });
});
