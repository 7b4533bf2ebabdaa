import { CloseCode, type LanguageId } from '@kandev/protocol';
import type { BridgeEnd } from '../bridge/bridge.js';
import { hasInstallerFor } from '../catalog/catalog.js';
import type { LogEvent, LogFields, LogLevel } from '../base/log.js';

/**
 * How the stream closes, as pure functions: what a missing server leads to (a close code, or an
 * install), and how each way a bridge ends is closed and logged. No sockets here, so every rule has a plain unit test.
 */
export type MissingServerDecision =
  { kind: 'close'; code: CloseCode; reason: 'no_installer' | 'auto_install_off' | 'installer_not_built_in' } | { kind: 'install' };

export function missingServerDecision(language: LanguageId, platform: NodeJS.Platform, autoInstall: boolean, installerBuiltIn: boolean): MissingServerDecision {
  // Kotlin everywhere, rust-analyzer on Windows: manual install only, nothing is attempted.
  if (!hasInstallerFor(language, platform)) return { kind: 'close', code: CloseCode.NoInstaller, reason: 'no_installer' };
  if (!autoInstall) return { kind: 'close', code: CloseCode.BinaryMissingInstallable, reason: 'auto_install_off' };
  if (!installerBuiltIn) return { kind: 'close', code: CloseCode.NoInstaller, reason: 'installer_not_built_in' };
  return { kind: 'install' };
}

export interface BridgeEndOutcome {
  /** Close code to send; undefined when the client already closed. */
  code: number | undefined;
  level: LogLevel;
  event: LogEvent;
  fields: LogFields;
}

export function bridgeEndOutcome(end: BridgeEnd): BridgeEndOutcome {
  switch (end.kind) {
    case 'client_closed':
      return { code: undefined, level: 'info', event: 'stream_closed', fields: { code: end.code } };
    case 'client_bad_frame':
      return { code: end.closeCode, level: 'warn', event: 'stream_bad_frame', fields: { detail: end.detail, code: end.closeCode } };
    case 'server_exited':
      // S31: a confirmed exit is 4006, without reason text.
      return { code: CloseCode.ServerExited, level: 'warn', event: 'server_exited', fields: { exitCode: end.exit.code, signal: end.exit.signal } };
    case 'server_bad_output':
      return { code: end.closeCode, level: 'warn', event: 'server_bad_output', fields: { detail: end.detail, code: end.closeCode } };
    case 'release_requested':
      // The stream reports `reaped` and closes 1000 itself once the tree is gone (lspStream.ts).
      return { code: CloseCode.Normal, level: 'info', event: 'stream_release', fields: {} };
    case 'stdin_stuck':
      // The hung server is killed and reaped: to the browser that is an exit (Retry), not a transport loss.
      return { code: CloseCode.ServerExited, level: 'warn', event: 'server_stdin_timeout', fields: {} };
  }
}
