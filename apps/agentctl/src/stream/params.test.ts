import { describe, expect, it } from 'vitest';
import { parseStreamParams } from './params.js';

describe('stream parameters', () => {
  it('accepts catalog languages and true/false auto-install, refusing anything else', () => {
    expect(parseStreamParams(new URLSearchParams('language=go&autoInstall=true'))).toEqual({
      ok: true,
      value: { language: 'go', autoInstall: true, trustWorkspaceTools: false },
    });
    expect(parseStreamParams(new URLSearchParams('language=kotlin'))).toEqual({
      ok: true,
      value: { language: 'kotlin', autoInstall: false, trustWorkspaceTools: false },
    });
    expect(parseStreamParams(new URLSearchParams('language=cobol')).ok).toBe(false);
    expect(parseStreamParams(new URLSearchParams('')).ok).toBe(false);
    expect(parseStreamParams(new URLSearchParams('language=go&autoInstall=1')).ok).toBe(false);
  });

  it('workspace trust is off unless the backend says exactly true', () => {
    expect(parseStreamParams(new URLSearchParams('language=go&trustWorkspaceTools=true'))).toMatchObject({ ok: true, value: { trustWorkspaceTools: true } });
    expect(parseStreamParams(new URLSearchParams('language=go&trustWorkspaceTools=false'))).toMatchObject({ ok: true, value: { trustWorkspaceTools: false } });
    expect(parseStreamParams(new URLSearchParams('language=go&trustWorkspaceTools=yes')).ok).toBe(false);
  });
});
