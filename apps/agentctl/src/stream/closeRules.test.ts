import { CloseCode } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { bridgeEndOutcome, missingServerDecision } from './closeRules.js';

describe('missing server decision', () => {
  it('S03 Kotlin is 4007 even when auto-install is requested', () => {
    expect(missingServerDecision('kotlin', 'linux', true, true)).toEqual({ kind: 'close', code: CloseCode.NoInstaller, reason: 'no_installer' });
  });

  it('S11 rust-analyzer on a Windows host is 4007; on Linux it installs when asked', () => {
    expect(missingServerDecision('rust', 'win32', true, true)).toMatchObject({ code: CloseCode.NoInstaller });
    expect(missingServerDecision('rust', 'linux', true, true)).toEqual({ kind: 'install' });
  });

  it('an auto-installable server with auto-install off is 4001', () => {
    expect(missingServerDecision('python', 'linux', false, true)).toEqual({
      kind: 'close',
      code: CloseCode.BinaryMissingInstallable,
      reason: 'auto_install_off',
    });
  });
});

describe('bridge end -> close code', () => {
  it('S31 maps a confirmed server exit to 4006 and a hung stdin to 4006 after the kill', () => {
    expect(bridgeEndOutcome({ kind: 'server_exited', exit: { code: 1, signal: null } }).code).toBe(CloseCode.ServerExited);
    expect(bridgeEndOutcome({ kind: 'stdin_stuck' }).code).toBe(CloseCode.ServerExited);
  });

  it('maps bad input to its standard code and a client close to no close at all', () => {
    expect(bridgeEndOutcome({ kind: 'client_bad_frame', closeCode: 1009, detail: 'x' }).code).toBe(1009);
    expect(bridgeEndOutcome({ kind: 'server_bad_output', closeCode: 1007, detail: 'bad_header' }).code).toBe(1007);
    expect(bridgeEndOutcome({ kind: 'client_closed', code: 1000 }).code).toBeUndefined();
  });
});
