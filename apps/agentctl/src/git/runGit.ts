import { execFile } from 'node:child_process';

/** What `git` said, or why it could not say it. */
export type GitRun = { ok: true; stdout: string } | { ok: false; missing: boolean; message: string };

/** Output above this is cut off and refused: a status of a huge untracked tree is not worth it. */
const MAX_GIT_OUTPUT_BYTES = 16 * 1024 * 1024;
const GIT_TIMEOUT_MS = 20_000;

/**
 * Runs git in `cwd` with the task environment. GIT_OPTIONAL_LOCKS=0: a status never takes the
 * index lock (an agent's own git command must not fail because we looked) and never rewrites the
 * index, which the watcher would report as a git change, which would run a status, and so on.
 */
export async function runGit(args: string[], cwd: string, env: Record<string, string>): Promise<GitRun> {
  const run = await runGitBytes(args, cwd, env);
  return run.ok ? { ok: true, stdout: run.bytes.toString('utf8') } : run;
}

/** The raw bytes of `git` output (a file's content at HEAD). */
export function runGitBytes(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ ok: true; bytes: Buffer } | { ok: false; missing: boolean; message: string }> {
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      {
        cwd,
        env: { ...env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
        maxBuffer: MAX_GIT_OUTPUT_BYTES,
        timeout: GIT_TIMEOUT_MS,
        encoding: 'buffer',
      },
      (error, stdout, stderr) => {
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          resolve({ ok: false, missing: code === 'ENOENT', message: String(stderr || error.message).slice(0, 500) });
          return;
        }
        resolve({ ok: true, bytes: stdout });
      },
    );
  });
}
