import { launchCommand } from '../process/launchCommand.js';
import { findOnPath } from '../env/pathLookup.js';
import type { InstallContext, Installer } from './installer.js';
import { NO_HOME, toolMissing } from './guidance.js';
import { managedRoot, npmLauncher, recipeDir, type NpmRecipe } from './layout.js';
import { failureText } from './output.js';
import { CANCELLED, type InstallOutcome } from './outcome.js';
import { createStaging, publishDirectory, sweepStale } from './publish.js';
import { describeExit, runInstaller } from './run.js';
import { npmInstallArgs } from './npmInstallArgs.js';

/**
 * The npm-installed servers (typescript-language-server + TypeScript, pyright, the VS Code JSON/CSS/HTML
 * servers, yaml-language-server, bash-language-server, docker-langserver), installed with the task's
 * own npm into `<managed root>/<recipe dir>`: `npm install --prefix <staging> <pinned packages>`, then the staging
 * directory is renamed into place. npm's .bin links are relative (and its Windows shims use %~dp0),
 * so the install keeps working after the rename.
 */
export function npmInstaller(recipe: NpmRecipe): Installer {
  return {
    // Keyed by folder: JSON, CSS and HTML share one install and must never race on it.
    lockKey: (env, platform) => `${managedRoot(env, platform) ?? ''}\0${recipe.dir}`,
    install: (ctx) => installWithNpm(ctx, recipe),
  };
}

async function installWithNpm(ctx: InstallContext, server: NpmRecipe): Promise<InstallOutcome> {
  const { env, platform, files, output } = ctx;
  const root = managedRoot(env, platform);
  if (root === undefined) return { ok: false, error: { code: 'failed', message: failureText(NO_HOME) } };
  const target = recipeDir(root, server, platform);
  const isComplete = (dir: string) => files.isLaunchable(npmLauncher(dir, server, platform));

  // Re-check under the lock: a request that queued behind a finished install reuses it (S10).
  if (isComplete(target)) return { ok: true, value: npmLauncher(target, server, platform) };

  const npm = findOnPath('npm', env, platform, files);
  if (npm === undefined) return { ok: false, error: { code: 'failed', message: failureText(toolMissing('npm', server.bin)) } };

  await sweepStale(files, platform, root, ctx.deps.clock.now());
  const staging = await createStaging(files, platform, root, ctx.language);
  try {
    output.note(`Installing ${server.packages.join(' ')} with ${npm}`);
    const args = npmInstallArgs(staging, server.packages);
    const line = launchCommand(npm, args, platform, env);
    const result = await runInstaller(
      { ...line, env, cwd: files.host(staging) },
      { spawn: ctx.deps.spawn, signal: ctx.signal, output, deadlineMs: ctx.deps.deadlineMs, clock: ctx.deps.clock },
    );
    if (result.kind === 'cancelled') return CANCELLED;
    if (result.kind !== 'exited' || result.code !== 0) {
      const how =
        result.kind === 'exited' ? describeExit(result) : result.kind === 'timed_out' ? 'did not finish in time' : `could not start (${result.message})`;
      const summary =
        `npm install of ${server.packages.join(' ')} ${how}. Check that the task host can reach the npm registry ` +
        "(proxy, registry and auth settings in the task's npm configuration); npm output follows.";
      return { ok: false, error: { code: 'failed', message: failureText(summary, output.tail()) } };
    }
    if (!isComplete(staging)) {
      const summary = `npm install finished but did not produce the ${server.bin} launcher; npm output follows.`;
      return { ok: false, error: { code: 'failed', message: failureText(summary, output.tail()) } };
    }
    if (ctx.signal.aborted) return CANCELLED; // torn down between exit and publish: publish nothing
    await publishDirectory(files, platform, staging, target, isComplete);
    return { ok: true, value: npmLauncher(target, server, platform) };
  } finally {
    // After a successful publish the staging path no longer exists; otherwise this discards it.
    await files.remove(staging);
  }
}
