import { tmpdir } from 'node:os';
import type { InstallRecipe } from '@kandev/protocol';
import { findOnPath } from '../env/pathLookup.js';
import { absoluteEntries, absolutePath, childEnv, envValue, pathFor, type TaskEnv } from '../env/taskEnv.js';
import type { InstallContext, Installer } from './installer.js';
import { toolMissing } from './guidance.js';
import { executableName, findGoInstalled } from './layout.js';
import { failureText } from './output.js';
import { CANCELLED, type InstallOutcome } from './outcome.js';
import { createStaging, publishFile, sweepStale } from './publish.js';
import { describeExit, runInstaller, type RunResult } from './run.js';

/**
 * gopls through `go install` with the TASK's Go: `go` from the task's PATH, and its GOBIN, GOPATH,
 * HOME, GOPROXY, GOFLAGS... as the task sets them (S07). The destination is what Go itself reports
 * (`go env`, which also reads `go env -w` settings the environment alone does not show).
 *
 * One deviation from a bare `go install`: Go is pointed at a staging directory inside that
 * destination (GOBIN=<dest>/.staging-gopls-*), and the binary is then renamed into <dest>. Go moves
 * its result into GOBIN by copying when the work dir is on another file system, so a cancelled
 * or crashed install could otherwise leave a truncated gopls where discovery would find it.
 */
export function goInstaller(recipe: GoRecipe, binary: string): Installer {
  return {
    lockKey: (env, platform) => ['go', ...['GOBIN', 'GOPATH', 'HOME', 'USERPROFILE'].map((n) => envValue(env, n, platform) ?? '')].join('\0'),
    install: (ctx) => installWithGo(ctx, recipe.module, binary),
  };
}

type GoRecipe = Extract<InstallRecipe, { kind: 'go' }>;

function failed(summary: string, tail: readonly string[] = []): InstallOutcome {
  return { ok: false, error: { code: 'failed', message: failureText(summary, tail) } };
}

function howItEnded(result: Exclude<RunResult, { kind: 'cancelled' }>): string {
  if (result.kind === 'exited') return describeExit(result);
  return result.kind === 'timed_out' ? 'did not finish in time' : `could not start (${result.message})`;
}

async function installWithGo(ctx: InstallContext, module: string, binary: string): Promise<InstallOutcome> {
  const { env, platform, files, output } = ctx;
  const path = pathFor(platform);
  const found = findGoInstalled(binary, env, platform, files);
  if (found !== undefined) return { ok: true, value: found };

  const go = findOnPath('go', env, platform, files);
  if (go === undefined) return failed(toolMissing('go', binary));

  const dest = await goInstallDir(ctx, go);
  if (dest.kind === 'cancelled') return CANCELLED;
  if (dest.kind === 'failed') return dest.outcome;
  const published = path.join(dest.dir, executableName(binary, platform));
  if (files.isLaunchable(published)) return { ok: true, value: published };

  await sweepStale(files, platform, dest.dir, ctx.deps.clock.now());
  const staging = await createStaging(files, platform, dest.dir, binary);
  try {
    const scratch = path.join(staging, 'tmp');
    await files.mkdirp(scratch);
    output.note(`Installing ${module} with ${go} into ${dest.dir}`);
    const result = await runInstaller(
      {
        command: go,
        args: ['install', module],
        // Go's build scratch (GOTMPDIR) goes into staging too, unless the task chose one: a killed
        // build then leaves nothing behind in the system temp directory.
        env: childEnv(env, { GOBIN: staging, GOTMPDIR: envValue(env, 'GOTMPDIR', platform) ?? scratch }, platform),
        cwd: files.host(staging),
      },
      { spawn: ctx.deps.spawn, signal: ctx.signal, output, deadlineMs: ctx.deps.deadlineMs, clock: ctx.deps.clock },
    );
    if (result.kind === 'cancelled') return CANCELLED;
    if (result.kind !== 'exited' || result.code !== 0) {
      return failed(
        `go install ${module} ${howItEnded(result)}. Check the task's Go setup (GOPROXY, GOFLAGS, network access ` +
          `to the module proxy, and a Go version recent enough for the latest ${binary}); go output follows.`,
        output.tail(),
      );
    }
    const staged = path.join(staging, executableName(binary, platform));
    if (!files.isLaunchable(staged))
      return failed(`go install finished but produced no ${executableName(binary, platform)}; go output follows.`, output.tail());
    if (ctx.signal.aborted) return CANCELLED;
    await publishFile(files, staged, published);
    return { ok: true, value: published };
  } finally {
    await files.remove(staging);
  }
}

type InstallDir = { kind: 'dir'; dir: string } | { kind: 'cancelled' } | { kind: 'failed'; outcome: InstallOutcome };

/** Where `go install` publishes for this task: GOBIN, else the first GOPATH entry's bin (Go's own rule). */
async function goInstallDir(ctx: InstallContext, go: string): Promise<InstallDir> {
  const { env, platform, output } = ctx;
  const result = await runInstaller(
    // A neutral working directory: a go.mod in agentctl's cwd must not steer (or switch) the toolchain.
    { command: go, args: ['env', '-json', 'GOBIN', 'GOPATH'], env, cwd: tmpdir() },
    { spawn: ctx.deps.spawn, signal: ctx.signal, output, deadlineMs: ctx.deps.deadlineMs, captureStdout: true, clock: ctx.deps.clock },
  );
  if (result.kind === 'cancelled') return { kind: 'cancelled' };
  if (result.kind !== 'exited' || result.code !== 0) {
    return { kind: 'failed', outcome: failed(`\`go env\` ${howItEnded(result)}; the task's Go installation looks broken. Output follows.`, output.tail()) };
  }
  let values: TaskEnv;
  try {
    values = JSON.parse(result.stdout) as TaskEnv;
  } catch {
    return {
      kind: 'failed',
      outcome: failed("`go env -json` printed something that is not JSON; the task's Go installation looks broken.", [result.stdout.slice(0, 1024)]),
    };
  }
  const gobin = values.GOBIN ?? '';
  if (gobin !== '') {
    const dir = absolutePath(gobin, platform);
    if (dir !== undefined) return { kind: 'dir', dir };
    return { kind: 'failed', outcome: failed(`The task's GOBIN (${gobin}) is not an absolute path; set an absolute GOBIN or unset it.`) };
  }
  const first = absoluteEntries(values.GOPATH, platform)[0];
  if (first !== undefined) return { kind: 'dir', dir: pathFor(platform).join(first, 'bin') };
  return {
    kind: 'failed',
    outcome: failed('Go reports neither GOBIN nor an absolute GOPATH for the task; set GOBIN (or HOME / USERPROFILE) in the task environment.'),
  };
}
