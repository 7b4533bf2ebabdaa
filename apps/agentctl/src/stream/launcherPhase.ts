import { CloseCode } from '@kandev/protocol';
import { resolveServer, type ResolveFs } from '../resolve/resolveServer.js';
import { missingServerDecision } from './closeRules.js';
import type { InstallLanguageServer } from '../install/seam.js';
import { runInstallPhase, type InstallPhaseContext, type InstallPhaseResult } from './installPhase.js';

export interface LauncherPhaseContext extends InstallPhaseContext {
  autoInstall: boolean;
  /** Absent: this agentctl has no installer at all, so a missing server is 4007. */
  installer: InstallLanguageServer | undefined;
  resolveFs?: ResolveFs;
}

/**
 * resolve -> (missing: decide -> install): the launcher to start, or how the stream ends instead.
 * Like the install phase it never touches the socket; the stream turns the result into a launch,
 * a close or a drop.
 */
export async function runLauncherPhase(ctx: LauncherPhaseContext): Promise<InstallPhaseResult> {
  const resolved = await resolveServer({ language: ctx.language, env: ctx.env, platform: ctx.platform, workspaceReal: ctx.workspaceReal, fs: ctx.resolveFs });
  if (ctx.isClosed()) return { kind: 'ended' };
  ctx.log(
    'info',
    'resolve_result',
    resolved.found ? { found: true, source: resolved.source, path: resolved.path } : { found: false, refused: resolved.refused.length },
  );
  if (resolved.found) return { kind: 'launch', binaryPath: resolved.path };
  const decision = missingServerDecision(ctx.language.id, ctx.platform, ctx.autoInstall, ctx.installer !== undefined);
  if (decision.kind === 'close' || !ctx.installer) {
    ctx.log('info', 'stream_refused', { reason: decision.kind === 'close' ? decision.reason : 'installer_not_built_in' });
    return { kind: 'close', code: decision.kind === 'close' ? decision.code : CloseCode.NoInstaller };
  }
  return runInstallPhase(ctx, ctx.installer);
}
