import { describe, expect, it } from 'vitest';
import { shouldAutoStart, type AutoStartInput } from './autoStart.js';

const base: AutoStartInput = { language: 'go', state: 'off', stoppedByUser: false, autoStartLanguages: ['go'], hasLeaseHint: false, phone: false };

describe('auto-start policy', () => {
  it('starts an auto-start language that is off', () => {
    expect(shouldAutoStart(base)).toBe(true);
    expect(shouldAutoStart({ ...base, state: 'error' })).toBe(false);
    expect(shouldAutoStart({ ...base, state: 'ready' })).toBe(false);
  });
  it('S02 an explicit Stop keeps the language Off on remount until the user starts it again', () => {
    expect(shouldAutoStart({ ...base, stoppedByUser: true })).toBe(false);
    expect(shouldAutoStart({ ...base, stoppedByUser: true, hasLeaseHint: true })).toBe(false);
  });
  it('C09 a returning tab with a lease hint resumes even when auto-start is disabled', () => {
    expect(shouldAutoStart({ ...base, autoStartLanguages: [], hasLeaseHint: true })).toBe(true);
    expect(shouldAutoStart({ ...base, autoStartLanguages: [] })).toBe(false);
  });
  it('a server detached while its session was in the background reattaches when an editor shows it, auto-start or not', () => {
    expect(shouldAutoStart({ ...base, state: 'detached', autoStartLanguages: [], hasLeaseHint: true })).toBe(true);
    expect(shouldAutoStart({ ...base, state: 'detached', phone: true })).toBe(false);
  });
  it('S58 a phone never starts a language server, even with a lease hint (C15)', () => {
    expect(shouldAutoStart({ ...base, phone: true, hasLeaseHint: true })).toBe(false);
  });
});
