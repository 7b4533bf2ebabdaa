import type { LanguageId } from '@kandev/protocol';

/**
 * The installer seam. apps/agentctl/src/install/index.ts (its own module) exports
 * `installLanguageServer` of this shape; the stream takes it as a dependency so it never imports the
 * installers itself (only their shared layout, install/layout.ts, reaches it through resolve/) and
 * tests pass a fake. Errors are values; a throw is treated as a failure too.
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

export type InstallOutcome =
  /** The published launcher (absolute; a concrete PATHEXT launcher on Windows). */
  | { ok: true; binaryPath: string }
  /** This host cannot install it (Kotlin; rust-analyzer on Windows): 4007, guidance for the log. */
  | { ok: false; code: 'no_installer'; guidance: string }
  /** Installer output, already bounded: sent in install_failed before 4003. */
  | { ok: false; code: 'failed'; error: string }
  | { ok: false; code: 'cancelled' };

export type InstallLanguageServer = (request: InstallRequest) => Promise<InstallOutcome>;
