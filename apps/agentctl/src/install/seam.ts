import type { LanguageId } from '@kandev/protocol';
import type { Result } from '../base/result.js';

/**
 * The installer seam. install/index.ts exports `installLanguageServer` of this shape; the stream
 * takes it as a dependency (importing these types from here) so it never imports the
 * installers themselves, only these types and their shared layout (install/layout.ts, through
 * resolve/), and tests pass a fake. The types live here, not in stream/, so install/ never imports
 * the stream back. Errors are values; a throw is treated as a failure too.
 */
export interface InstallRequest {
  language: LanguageId;
  /** The task env minus AGENTCTL_*: HOME, PATH, GOBIN, ... of the task, never agentctl's own. */
  env: Record<string, string>;
  platform: NodeJS.Platform;
  /** Aborted on agentctl teardown or when the stream's client goes away: stop and drain. */
  signal: AbortSignal;
  /** Installer output as it happens (kept as a bounded tail in case the installer throws). */
  onOutput: (chunk: string) => void;
}

/** Why nothing was installed; the stream maps each code to frames and a close code. */
export type InstallFailure =
  /** This host cannot install it (Kotlin; rust-analyzer on Windows): 4007, guidance for the log. */
  | { code: 'no_installer'; guidance: string }
  /** Installer output, already bounded: sent in install_failed before 4003. */
  | { code: 'failed'; message: string }
  | { code: 'cancelled' };

/** The published launcher (absolute; a concrete PATHEXT launcher on Windows), or why there is none. */
export type InstallOutcome = Result<string, InstallFailure>;

export type InstallLanguageServer = (request: InstallRequest) => Promise<InstallOutcome>;
