import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { repoRoot } from './build.js';

/**
 * A throwaway copy of this checkout's sources (what git tracks or would track, as the working tree
 * has them) in which a test may change the product as a contributor would, then build and run it,
 * without touching the checkout. Its node_modules links to the checkout's packages, except the
 * workspace packages (`@kandev/*`), which link to the copy's own folders so the copy's sources are
 * the ones built.
 */
export interface ScratchCheckout {
  root: string;
  /** Reads a file of the copy (a path relative to its root). */
  read(path: string): string;
  /** Writes a file of the copy, creating its folders. */
  write(path: string, text: string): void;
  /** Runs `args` with this Node in the copy's root; throws with its output when it fails. */
  node(args: string[], timeoutMs: number): string;
  /** `node`, without blocking: several steps of the copy (a build, a test run) may run side by side. */
  nodeAsync(args: string[], timeoutMs: number, env?: Record<string, string>): Promise<string>;
  remove(): void;
}

/** Folders whose contents are never copied: dependencies, build outputs and test output. */
const SKIPPED = /(^|\/)(node_modules|dist|dist-test|test-results)\//;

export function scratchCheckout(): ScratchCheckout {
  const root = mkdtempSync(join(tmpdir(), 'kandev-scratch-'));
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  for (const path of listed.split('\0')) {
    if (!path || SKIPPED.test(path)) continue;
    try {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      cpSync(join(repoRoot, path), join(root, path));
    } catch (err) {
      // A file git still lists but the working tree deleted is not part of the copy.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  linkDependencies(root);
  return {
    root,
    read: (path) => readFileSync(join(root, path), 'utf8'),
    write: (path, text) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    },
    node: (args, timeoutMs) => {
      try {
        return execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', stdio: 'pipe', timeout: timeoutMs, env: withoutTestRunner(process.env) });
      } catch (err) {
        throw failure(root, args, err);
      }
    },
    nodeAsync: (args, timeoutMs, env = {}) =>
      new Promise((resolve, reject) => {
        const options = { cwd: root, encoding: 'utf8' as const, timeout: timeoutMs, maxBuffer: 64 << 20, env: { ...withoutTestRunner(process.env), ...env } };
        execFile(process.execPath, args, options, (err, stdout, stderr) =>
          err ? reject(failure(root, args, Object.assign(err, { stdout, stderr }))) : resolve(stdout),
        );
      }),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

function failure(root: string, args: string[], err: unknown): Error {
  const e = err as { stdout?: string; stderr?: string; message: string };
  return new Error(`node ${args.join(' ')} failed in ${root}: ${e.message}\n${(e.stdout ?? '').slice(-4000)}\n${(e.stderr ?? '').slice(-4000)}`);
}

/** The checkout's node_modules entries as links, the workspace packages pointing into the copy. */
function linkDependencies(root: string): void {
  for (const folder of ['node_modules', 'apps/web/node_modules']) {
    const source = join(repoRoot, folder);
    const target = join(root, folder);
    mkdirSync(target, { recursive: true });
    for (const entry of readdirSync(source)) {
      if (entry === '@kandev') continue;
      symlinkSync(join(source, entry), join(target, entry));
    }
  }
  const workspaces = join(root, 'node_modules/@kandev');
  mkdirSync(workspaces);
  for (const entry of readdirSync(join(repoRoot, 'node_modules/@kandev'))) {
    // npm links a workspace relatively (`../../packages/protocol`): the same place in the copy.
    const link = join(repoRoot, 'node_modules/@kandev', entry);
    const folder = relative(repoRoot, join(dirname(link), readlinkSync(link)));
    symlinkSync(join(root, folder), join(workspaces, entry));
  }
}

/**
 * A child Vitest or build must not believe it runs inside this test's worker, nor in `npm test`'s
 * lane: with KANDEV_TEST_LANE=serial (the lane this test runs in) a child run sees only the serial
 * files, and the conformance file it names is not among them.
 */
function withoutTestRunner(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) if (!/^(VITEST|TEST)($|_)/.test(key) && key !== 'NODE_ENV' && key !== 'KANDEV_TEST_LANE') out[key] = value;
  return out;
}
