import { execFileSync, spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findManagedBinary, installLanguageServer, InstallLock, managedRoot, type SpawnFn } from '../../apps/agentctl/src/install/index.js';
import { descendantsOf, listProcesses } from '../../apps/agentctl/src/process/processTable.js';
import { prerequisite } from '../support/env.js';
import { StdioLspClient } from '../support/stdioClient.js';

/**
 * Real npm installs from the npm registry into a temporary task HOME, and the installed servers
 * answering a real `initialize`. Slow by nature (network), so each install happens once.
 */
const npmOnPath = (() => {
  try {
    execFileSync('npm', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const hasNpm = prerequisite(npmOnPath, 'npm');
const INSTALL_TIMEOUT = 300_000;

let work: string;
let home: string;
/** npm's own download cache, shared to spare the network; Kandev's install location is the task HOME. */
let npmCache: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'kandev-npm-install-'));
  home = join(work, 'task-home');
  npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * Like a Local PC task: the backend's environment (CA certificates, proxies) with the task's
 * overrides, here its own HOME.
 */
const taskEnv = (taskHome = home, cache = npmCache) => ({ ...process.env, HOME: taskHome, npm_config_cache: cache });

/** The real spawn, counting installer processes. */
function countingSpawn(): { spawn: SpawnFn; count: () => number } {
  let n = 0;
  return { spawn: (command, args, options) => (n++, spawn(command, args, options)), count: () => n };
}

/** A file the installed server must understand: hover on `symbol` has to name its type. */
interface HoverProbe {
  file: string;
  languageId: string;
  text: string;
  symbol: string;
}

async function initializeOver(launcher: string, probe?: HoverProbe): Promise<Record<string, any> & { hover?: string }> {
  const client = new StdioLspClient(launcher, ['--stdio'], { env: { ...process.env, HOME: home }, cwd: work });
  try {
    const reply: Record<string, any> & { hover?: string } = await client.request('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(work).href,
      workspaceFolders: null,
      capabilities: {},
    });
    client.notify('initialized', {});
    if (probe) {
      const path = join(work, probe.file);
      writeFileSync(path, probe.text);
      const uri = pathToFileURL(path).href;
      client.notify('textDocument/didOpen', { textDocument: { uri, languageId: probe.languageId, version: 1, text: probe.text } });
      const index = probe.text.indexOf(probe.symbol);
      const before = probe.text.slice(0, index + 1).split('\n');
      const position = { line: before.length - 1, character: (before[before.length - 1] as string).length - 1 };
      const hover = await client.request('textDocument/hover', { textDocument: { uri }, position });
      const contents = hover.result?.contents;
      reply.hover = typeof contents === 'string' ? contents : Array.isArray(contents) ? JSON.stringify(contents) : (contents?.value ?? '');
    }
    await client.request('shutdown', null);
    client.notify('exit', null);
    await client.exited();
    return reply;
  } finally {
    client.child.kill('SIGKILL');
  }
}

// The installs wait mostly on npm and the registry, so the four that install (or fail to) run side
// by side, each into a HOME of its own; the reuse check (S10) follows the pyright install it reuses.
describe.runIf(hasNpm)('npm-managed language servers', () => {
  it.concurrent(
    "S09: pyright installs into the task HOME (not agentctl's), concurrent requests share one npm run, and it answers hover",
    async () => {
      const env = taskEnv();
      const counted = countingSpawn();
      const deps = { spawn: counted.spawn, lock: new InstallLock() };
      const lines: string[] = [];
      const [a, b] = await Promise.all([
        installLanguageServer({ language: 'python', env, platform: 'linux', signal: new AbortController().signal, onOutput: (l) => lines.push(l) }, deps),
        installLanguageServer({ language: 'python', env, platform: 'linux', signal: new AbortController().signal }, deps),
      ]);

      const launcher = join(home, '.kandev', 'lsp-servers', 'python', 'node_modules', '.bin', 'pyright-langserver');
      expect(a).toEqual({ ok: true, value: launcher });
      expect(b).toEqual(a);
      expect(counted.count()).toBe(1);
      expect(managedRoot(env, 'linux')).not.toBe(managedRoot({ HOME: homedir() }, 'linux'));
      expect(() => accessSync(launcher, constants.X_OK)).not.toThrow();
      expect(lines[0]).toMatch(/^Installing pyright@1 with /);
      expect(readdirSync(join(home, '.kandev', 'lsp-servers'))).toEqual(['python']); // staging renamed away

      const reply = await initializeOver(launcher, { file: 'probe.py', languageId: 'python', text: 'answer: int = 42\nprint(answer)\n', symbol: 'answer)' });
      expect(reply.result?.capabilities?.hoverProvider).toBeTruthy();
      expect(reply.result?.capabilities?.completionProvider).toBeTruthy();
      expect(reply.hover).toMatch(/\(variable\) answer: (int|Literal\[42\])/);
    },
    INSTALL_TIMEOUT,
  );

  it.concurrent(
    'S09: typescript-language-server 5 with TypeScript 6 installs into the task HOME and answers hover on this Node',
    async () => {
      const tsHome = join(work, 'typescript-home');
      const outcome = await installLanguageServer({ language: 'typescript', env: taskEnv(tsHome), platform: 'linux', signal: new AbortController().signal });

      const dir = join(tsHome, '.kandev', 'lsp-servers', 'typescript');
      const launcher = join(dir, 'node_modules', '.bin', 'typescript-language-server');
      expect(outcome).toEqual({ ok: true, value: launcher });
      const version = (pkg: string) => (JSON.parse(readFileSync(join(dir, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
      expect(version('typescript-language-server')).toMatch(/^5\./);
      expect(version('typescript')).toMatch(/^6\./);

      const reply = await initializeOver(launcher, {
        file: 'probe.ts',
        languageId: 'typescript',
        text: 'const answer = 42;\nconsole.log(answer);\n',
        symbol: 'answer)',
      });
      expect(reply.result?.capabilities?.completionProvider).toBeTruthy();
      expect(reply.hover).toMatch(/const answer: 42/);
    },
    INSTALL_TIMEOUT,
  );

  it.concurrent(
    "S12: an npm failure carries npm's own error, bounded, and publishes nothing",
    async () => {
      const failHome = join(work, 'fail-home');
      // An unreachable registry: npm fails fast and explains itself.
      const env = { ...taskEnv(failHome, join(work, 'empty-cache')), npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' };
      const outcome = await installLanguageServer(
        { language: 'python', env, platform: 'linux', signal: new AbortController().signal },
        { lock: new InstallLock() },
      );
      expect(outcome).toMatchObject({ ok: false, error: { code: 'failed' } });
      const error = (outcome as { error: { message: string } }).error.message;
      expect(error).toMatch(/^npm install of pyright@1 exited with code 1\. Check that the task host can reach the npm registry/);
      expect(error).toMatch(/npm error/);
      expect(Buffer.byteLength(error)).toBeLessThanOrEqual(8 * 1024);
      expect(readdirSync(join(failHome, '.kandev', 'lsp-servers'))).toEqual([]);
    },
    INSTALL_TIMEOUT,
  );

  it.concurrent(
    "S56: tearing down mid-install kills npm's whole process tree, removes staging and publishes nothing",
    async () => {
      const cancelHome = join(work, 'cancel-home');
      const root = join(cancelHome, '.kandev', 'lsp-servers');
      // An empty npm cache, so npm is still downloading when the teardown comes.
      const coldCache = join(work, 'cold-cache');
      const env = taskEnv(cancelHome, coldCache);
      let installerPid = 0;
      /** How npm ended: killed (a signal), not left to finish its download and exit on its own. */
      let installerEnd: Promise<NodeJS.Signals | null> = Promise.resolve(null);
      const teardown = new AbortController();
      const install = installLanguageServer(
        { language: 'python', env, platform: 'linux', signal: teardown.signal },
        {
          spawn: (c, a, o) => {
            const child = spawn(c, a, o);
            installerPid = child.pid ?? 0;
            installerEnd = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
            return child;
          },
          lock: new InstallLock(),
        },
      );
      // Started: npm runs (as the leader of its own process group), is writing its log into its
      // cache, and its staging directory exists.
      await vi.waitFor(
        () => {
          expect(installerPid).toBeGreaterThan(0);
          expect(existsSync(join(coldCache, '_logs'))).toBe(true);
          expect(listProcesses().find((p) => p.pid === installerPid)?.pgid).toBe(installerPid);
          expect(readdirSync(root).some((n) => n.startsWith('.staging-python-'))).toBe(true);
        },
        { timeout: 60_000 },
      );
      const tree = [installerPid, ...descendantsOf(installerPid).map((p) => p.pid)];

      teardown.abort();
      expect(await install).toEqual({ ok: false, error: { code: 'cancelled' } });
      expect(await installerEnd).not.toBeNull();

      const stillRunning = listProcesses().filter((p) => (tree.includes(p.pid) || p.pgid === installerPid) && p.state !== 'Z' && p.state !== 'X');
      expect(stillRunning).toEqual([]);
      expect(readdirSync(root)).toEqual([]); // no staging, no python/
      expect(existsSync(join(root, 'python'))).toBe(false);
      expect(findManagedBinary('python', env, 'linux')).toBeUndefined();
    },
    INSTALL_TIMEOUT,
  );
  it('S10: a later connection reuses the cached launcher without running npm again', async () => {
    const counted = countingSpawn();
    const expected = join(home, '.kandev', 'lsp-servers', 'python', 'node_modules', '.bin', 'pyright-langserver');
    const outcome = await installLanguageServer(
      { language: 'python', env: taskEnv(), platform: 'linux', signal: new AbortController().signal },
      { spawn: counted.spawn },
    );
    expect(outcome).toEqual({ ok: true, value: expected });
    expect(counted.count()).toBe(0);
    expect(findManagedBinary('python', taskEnv(), 'linux')).toBe(expected);
  });
});
