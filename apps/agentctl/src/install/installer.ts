import { spawn } from 'node:child_process';
import { systemClock, type Clock } from '@kandev/kit';
import type { LanguageId } from '@kandev/protocol';
import type { TaskEnv } from '../env/taskEnv.js';
import { HostFiles, identityPath, type ToHostPath } from './hostFs.js';
import { InstallLock } from './lock.js';
import type { InstallOutcome } from './outcome.js';
import type { OutputTail } from './output.js';
import type { SpawnFn } from './run.js';

/**
 * The installer contract: what each installer (go.ts, npm.ts, release.ts) implements, the context
 * one run works with, and the outside world it touches (InstallDeps, injectable for tests).
 */
export type Libc = 'gnu' | 'musl';

/** Everything an install touches outside its own logic, injectable for tests. */
export interface InstallDeps {
  spawn: SpawnFn;
  fetch: typeof globalThis.fetch;
  /** A release recipe's base URL (tests); wins over the task env's mirror variable the recipe names. */
  releaseBaseUrl: string | undefined;
  /** Task-platform path -> host path (identity except in Windows-on-Linux tests). */
  toHostPath: ToHostPath;
  /** CPU architecture of the task host, as Node names it (x64, arm64). */
  arch: string;
  /** C library of a Linux task host, which picks the release build. */
  libc: () => Libc;
  lock: InstallLock;
  /** Dates stale install leftovers (the house's one clock interface). */
  clock: Clock;
  /** An installer running longer than this is ended and reported as failed. */
  deadlineMs: number;
}

/** One lock per agentctl: installs are serialized across all of its streams. */
const processLock = new InstallLock();

function detectLibc(): Libc {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header?.glibcVersionRuntime ? 'gnu' : 'musl';
}

export function resolveDeps(deps: Partial<InstallDeps> = {}): InstallDeps {
  return {
    spawn: deps.spawn ?? spawn,
    fetch: deps.fetch ?? globalThis.fetch,
    releaseBaseUrl: deps.releaseBaseUrl,
    toHostPath: deps.toHostPath ?? identityPath,
    arch: deps.arch ?? process.arch,
    libc: deps.libc ?? detectLibc,
    lock: deps.lock ?? processLock,
    clock: deps.clock ?? systemClock,
    deadlineMs: deps.deadlineMs ?? 20 * 60 * 1000,
  };
}

/** What one installer run works with; `signal` is the shared install's, not one stream's. */
export interface InstallContext {
  language: LanguageId;
  env: TaskEnv;
  platform: NodeJS.Platform;
  signal: AbortSignal;
  output: OutputTail;
  files: HostFiles;
  deps: InstallDeps;
}

export interface Installer {
  /** The target installs are serialized on. */
  lockKey(env: TaskEnv, platform: NodeJS.Platform): string;
  install(ctx: InstallContext): Promise<InstallOutcome>;
}
