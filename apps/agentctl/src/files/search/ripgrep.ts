import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { findOnPath } from '../../env/pathLookup.js';
import type { TaskEnv } from '../../env/taskEnv.js';
import { SKIPPED_DIRS, type SearchLimits } from './limits.js';
import type { SearchQuery } from './query.js';
import { hitsFromRgLine } from './rgJson.js';
import type { HitSink, SearchOutcome } from './walker.js';

const executable = {
  isLaunchable(path: string): boolean {
    try {
      accessSync(path, constants.X_OK);
      return statSync(path).isFile();
    } catch {
      return false;
    }
  },
};

/** ripgrep on the task host's PATH (Debian's `ripgrep` package), if any. */
export function findRipgrep(env: TaskEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  return findOnPath('rg', env, platform, executable);
}

/** Arguments that make ripgrep answer exactly what the walker would, minus its speed. */
export function ripgrepArgs(query: SearchQuery, limits: SearchLimits): string[] {
  const { options } = query;
  const args = [
    '--json',
    '--no-config', // a user's RIPGREP_CONFIG_PATH must not change what the API answers
    '--no-follow', // symlinks are never followed out of the workspace
    '--hidden', // dot files are searched like any other; .gitignore decides
    '--no-require-git', // .gitignore counts even in a workspace that is not a git checkout
    '--no-messages', // unreadable files are skipped silently, as the walker does
    '--max-filesize',
    String(limits.maxFileBytes),
    ...SKIPPED_DIRS.flatMap((dir) => ['--glob', `!${dir}`]),
    options.caseSensitive ? '--case-sensitive' : '--ignore-case',
  ];
  if (options.wholeWord) args.push('--word-regexp');
  if (!options.regex) args.push('--fixed-strings');
  args.push('--regexp', query.text);
  return args;
}

/**
 * Runs `rg --json` in the workspace (its real path, so the paths it prints are relative to it) and
 * streams its hits. Stops rg as soon as the limit is reached or `signal` aborts; a search that
 * rg itself refuses (an expression its regex engine does not support) is a bad request.
 */
export function ripgrepSearch(
  rg: string,
  root: string,
  query: SearchQuery,
  limits: SearchLimits,
  signal: AbortSignal,
  sink: HitSink,
  onSpawn?: (child: ChildProcess) => void,
): Promise<SearchOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, ripgrepArgs(query, limits), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    onSpawn?.(child);
    let found = 0;
    let truncated = false;
    let stderr = '';
    const stop = () => child.kill('SIGKILL');
    signal.addEventListener('abort', stop, { once: true });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => {
      if (truncated || signal.aborted) return;
      const hits = hitsFromRgLine(line);
      if (hits.length === 0) return;
      const room = limits.maxHits - found;
      const taken = hits.length > room ? hits.slice(0, room) : hits;
      found += taken.length;
      if (taken.length > 0) sink(taken);
      if (found >= limits.maxHits) {
        truncated = true;
        stop();
      }
    });
    child.once('error', (err) => {
      signal.removeEventListener('abort', stop);
      reject(err);
    });
    child.once('close', (code) => {
      signal.removeEventListener('abort', stop);
      // 0: matches, 1: no match; 2 with output is "some files could not be read", still an answer.
      if (truncated || signal.aborted || code === 0 || code === 1 || (code === 2 && stderr === '')) {
        resolve({ truncated });
        return;
      }
      reject(new RipgrepRefused(stderr.trim().split('\n').slice(-3).join(' ').slice(0, 500) || `rg exited with ${String(code)}`));
    });
  });
}

export class RipgrepRefused extends Error {}
