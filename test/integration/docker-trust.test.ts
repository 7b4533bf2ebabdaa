/**
 * Workspace trust on Local Docker (docs/workspace-trust.md): the hostile repositories of the Local PC
 * trust tests, opened in a task container. Each planted program records its runs in a marker file
 * on a mount of its own (outside the workspace, so neither the files API nor a server sees it);
 * each is first shown to RUN when the task trusts its workspace (the witness works), then never to
 * run while it does not, with the real server still answering:
 *
 * - TypeScript: the workspace's `node_modules/typescript/lib/tsserver.js`;
 * - pyright: the repository's `.venv/bin/python3`, its virtualenv activated on the task PATH;
 * - gopls: a repository `go` first on the task PATH.
 *
 * The servers are the real ones, run inside the container from read-only mounts of this machine's
 * toolchains (the repository's node_modules, Debian's gopls and Go), the way an operator mounts
 * tools with KANDEV_DOCKER_MOUNTS. The base image has no Python: the trusted venv interpreter runs
 * (the marker says so) and then fails to exec a real one, which pyright tolerates.
 *
 * Servers of an untrusted Docker task are off the network too (bubblewrap in the container, allowed by
 * Kandev's seccomp profile): the browser's ready frame says so (`network: "off"`), checked here too;
 * docker-trust-network.test.ts shows what that means with a listener.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Task } from '@kandev/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/build.js';
import { prerequisite } from '../support/env.js';
import { CONTAINER_SYSTEM_PATH, dockerAvailable, dockerBackendEnv, type DockerEnv, startDockerEnv, stopDockerEnv } from './docker-support.js';
import { startLeaseBackend, startSession, type LeaseBackend, type LeaseClient } from './lease-support.js';
import { diagnosticsOf, hoverText, openFile } from './trust-support.js';

const root = mkdtempSync(join(tmpdir(), 'kandev-docker-trust-'));
const markers = join(root, 'markers');
const CONTAINER_MARKERS = '/kandev-markers';
const CONTAINER_TOOLS = '/opt/tools/node_modules';
const CONTAINER_GOPLS = '/opt/gopls/bin';
/** Debian's Go: /usr/bin/go -> /usr/lib/go-1.N/bin/go, whose src and friends link into /usr/share/go-1.N. */
const goRoot = existsSync('/usr/bin/go') ? dirname(dirname(realpathSync('/usr/bin/go'))) : '';
const goShare = goRoot.replace('/usr/lib/', '/usr/share/');
const goReady = prerequisite(goRoot !== '' && existsSync(goShare) && existsSync('/usr/bin/gopls'), "Debian's golang-go and gopls");

interface DockerHostile {
  dir: string;
  /** Lines the planted program wrote, one per run (empty while nothing ran). */
  runs(): string[];
}

/** A repository on this host for a task container; `@MARKER@` in a file is the container path of its marker. */
function dockerHostile(name: string, files: Record<string, string>, executables: string[] = []): DockerHostile {
  const dir = join(root, name);
  const marker = join(markers, `${name}.log`);
  for (const [path, text] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text.replaceAll('@MARKER@', `${CONTAINER_MARKERS}/${name}.log`));
  }
  for (const path of executables) chmodSync(join(dir, path), 0o755);
  return { dir, runs: () => (existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').filter(Boolean) : []) };
}

/** A POSIX sh program that records its run, then execs the real tool (so the server still works). */
const recordingShim = (realTool: string, label: string) => `#!/bin/sh\necho "${label} $*" >> '@MARKER@'\nexec '${realTool}' "$@"\n`;

describe.skipIf(!dockerAvailable)('workspace trust on Local Docker: hostile repositories', () => {
  let env: DockerEnv;
  let stack: LeaseBackend;

  beforeAll(async () => {
    env = startDockerEnv();
    mkdirSync(markers, { recursive: true });
    const mounts = [`${join(repoRoot, 'node_modules')}:${CONTAINER_TOOLS}:ro`, `${markers}:${CONTAINER_MARKERS}:rw`];
    if (goReady) mounts.push(`${goRoot}:${goRoot}:ro`, `${goShare}:${goShare}:ro`, `/usr/bin/gopls:${CONTAINER_GOPLS}/gopls:ro`);
    stack = await startLeaseBackend({
      ...dockerBackendEnv(env),
      KANDEV_DOCKER_MOUNTS: JSON.stringify(mounts),
    });
  }, 600_000);

  afterAll(async () => {
    // Closing the backend stops every session, which removes its container.
    await stack?.close();
    stopDockerEnv(env);
    rmSync(root, { recursive: true, force: true });
  });

  async function dockerTask(title: string, dir: string, taskEnv: Record<string, string>): Promise<{ task: Task; sessionId: string }> {
    const created = await stack.api('POST', '/api/tasks', { title, executor: 'local_docker', repositories: [{ path: dir }], env: taskEnv });
    if (created.status !== 201) throw new Error(JSON.stringify(created.json));
    return { task: created.json as Task, sessionId: await startSession(stack, created.json.id) };
  }

  async function setTrust(taskId: string, trusted: boolean): Promise<void> {
    const patched = await stack.api('PATCH', `/api/tasks/${taskId}`, { trustWorkspaceTools: trusted });
    expect(patched.json.trustWorkspaceTools).toBe(trusted);
  }

  /** Releases the lease and waits for its close: the server's whole process tree is gone by then. */
  async function release(client: LeaseClient): Promise<void> {
    client.control({ control: 'release', reason: 'stop' });
    await client.closed;
  }

  it('TypeScript: trusted, the workspace tsserver.js runs in the container; untrusted, it never does and the server still answers', async () => {
    const text = 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\nexport const n: number = "not a number";\n';
    const ws = dockerHostile('ts', {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022' } }),
      'a.ts': text,
      'node_modules/typescript/package.json': JSON.stringify({ name: 'typescript', version: '6.0.0', main: './lib/typescript.js' }),
      'node_modules/typescript/lib/typescript.js': 'module.exports = {};\n',
      'node_modules/typescript/lib/tsserver.js': `require('node:fs').appendFileSync('@MARKER@', 'workspace tsserver ' + process.pid + '\\n');\nrequire(${JSON.stringify(`${CONTAINER_TOOLS}/typescript/lib/tsserver.js`)});\n`,
    });
    const source = { path: 'a.ts', languageId: 'typescript', text };
    const { task, sessionId } = await dockerTask('hostile ts', ws.dir, { PATH: `${CONTAINER_TOOLS}/.bin:${CONTAINER_SYSTEM_PATH}` });

    await setTrust(task.id, true);
    const trusted = await openFile(stack, sessionId, 'typescript', source);
    expect(trusted.ready.workspaceUri).toBe('file:///workspace');
    expect((await trusted.client.waitFor((f) => f.method === '$/typescriptVersion')).params.source).toBe('workspace');
    await diagnosticsOf(trusted.client, trusted.uri);
    expect(trusted.ready.network).toBeUndefined();
    expect(ws.runs().length).toBeGreaterThan(0);
    expect(ws.runs().every((line) => /^workspace tsserver \d+$/.test(line))).toBe(true);
    await release(trusted.client);

    const before = ws.runs().length;
    await setTrust(task.id, false);
    // Whatever the browser asks: the broker pins tsserver.path to the task host's TypeScript.
    const hostile = { tsserver: { path: '/workspace/node_modules/typescript/lib/tsserver.js' }, plugins: [{ name: 'x', location: '/workspace' }] };
    const untrusted = await openFile(stack, sessionId, 'typescript', source, hostile);
    expect((await untrusted.client.waitFor((f) => f.method === '$/typescriptVersion')).params.source).toBe('user-setting');
    expect(JSON.stringify((await diagnosticsOf(untrusted.client, untrusted.uri)).params.diagnostics)).toContain('not assignable');
    expect(await hoverText(untrusted.client, untrusted.uri, 0, 17)).toContain('greet(name: string): string');
    expect(ws.runs()).toHaveLength(before);
    // The page is told: the server runs without network, in the container too.
    expect(untrusted.ready.network).toBe('off');
    await release(untrusted.client);
  }, 300_000);

  it('pyright: trusted, the activated venv interpreter runs in the container; untrusted, it never does and pyright still type-checks', async () => {
    const ws = dockerHostile(
      'py',
      {
        'pyrightconfig.json': JSON.stringify({ venvPath: '.', venv: '.venv' }),
        '.venv/pyvenv.cfg': 'home = /usr/bin\n',
        '.venv/bin/python3': recordingShim('/usr/bin/python3', 'venv python3'),
        '.venv/bin/python': recordingShim('/usr/bin/python3', 'venv python'),
        '.venv/lib/python3.11/site-packages/hostile_lib.py': 'VALUE: int = 42\n',
        'app.py': '',
      },
      ['.venv/bin/python3', '.venv/bin/python'],
    );
    const source = { path: 'app.py', languageId: 'python', text: 'import hostile_lib\n\ncount: int = "three"\nanswer = hostile_lib.VALUE\n' };
    const { task, sessionId } = await dockerTask('hostile python', ws.dir, { PATH: `/workspace/.venv/bin:${CONTAINER_TOOLS}/.bin:${CONTAINER_SYSTEM_PATH}` });

    await setTrust(task.id, true);
    const trusted = await openFile(stack, sessionId, 'python', source);
    await diagnosticsOf(trusted.client, trusted.uri);
    expect(trusted.ready.network).toBeUndefined();
    expect(ws.runs().length).toBeGreaterThan(0);
    expect(ws.runs().every((line) => line.startsWith('venv python'))).toBe(true);
    await release(trusted.client);

    const before = ws.runs().length;
    await setTrust(task.id, false);
    const untrusted = await openFile(stack, sessionId, 'python', source);
    const diagnostics = JSON.stringify((await diagnosticsOf(untrusted.client, untrusted.uri)).params.diagnostics);
    expect(diagnostics).toContain('is not assignable');
    expect(diagnostics).not.toContain('hostile_lib');
    expect(await hoverText(untrusted.client, untrusted.uri, 3, 22)).toContain('int');
    expect(ws.runs()).toHaveLength(before);
    // The page is told: the server runs without network, in the container too.
    expect(untrusted.ready.network).toBe('off');
    await release(untrusted.client);
  }, 300_000);

  it.runIf(goReady)(
    'gopls: trusted, the repository go runs in the container; untrusted, it never does and gopls still type-checks and hovers',
    async () => {
      const mainGo = 'package main\n\n// Hello greets.\nfunc Hello() string { return "hi" }\n\nfunc main() {\n\tvar n int = "x"\n\t_ = n\n\t_ = Hello()\n}\n';
      const ws = dockerHostile(
        'go',
        { 'go.mod': 'module example.com/hostile\n\ngo 1.19\n', 'main.go': mainGo, 'bin/go': recordingShim(`${goRoot}/bin/go`, 'workspace go') },
        ['bin/go'],
      );
      const source = { path: 'main.go', languageId: 'go', text: mainGo };
      const { task, sessionId } = await dockerTask('hostile go', ws.dir, {
        PATH: `/workspace/bin:${goRoot}/bin:${CONTAINER_GOPLS}:${CONTAINER_SYSTEM_PATH}`,
        GOFLAGS: '-mod=mod',
        GOPROXY: 'off',
        CGO_ENABLED: '0',
      });

      await setTrust(task.id, true);
      const trusted = await openFile(stack, sessionId, 'go', source);
      await diagnosticsOf(trusted.client, trusted.uri);
      expect(ws.runs().length).toBeGreaterThan(0);
      expect(ws.runs().every((line) => line.startsWith('workspace go '))).toBe(true);
      await release(trusted.client);

      const before = ws.runs().length;
      await setTrust(task.id, false);
      const untrusted = await openFile(stack, sessionId, 'go', source);
      const diagnostics = await diagnosticsOf(untrusted.client, untrusted.uri);
      expect(diagnostics.params.diagnostics.map((d: { message: string }) => d.message).join('\n')).toContain('cannot use "x"');
      expect(await hoverText(untrusted.client, untrusted.uri, 8, 7)).toContain('func Hello() string');
      expect(ws.runs()).toHaveLength(before);
      // The page is told: the server runs without network, in the container too.
      expect(untrusted.ready.network).toBe('off');
      await release(untrusted.client);
    },
    300_000,
  );
});
