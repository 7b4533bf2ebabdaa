/**
 * The local_docker executor on its own, against the private test dockerd (scripts/docker-env.sh):
 * errors before anything starts, the container's environment as a language server sees it,
 * several repositories under /workspace, and a stop that leaves nothing behind.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Task } from '@kandev/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspTestClient } from '../../apps/agentctl/src/testing/agentctlProcess.js';
import type { TaskHost } from '../../apps/backend/src/executors/executor.js';
import { createDockerClient } from '../../apps/backend/src/executors/docker/dockerClient.js';
import type { DockerConfig } from '../../apps/backend/src/executors/docker/dockerConfig.js';
import { LocalDockerExecutor } from '../../apps/backend/src/executors/localDocker.js';
import { createLogger } from '../../apps/backend/src/base/log.js';
import { ensureBuilt, repoRoot } from '../support/build.js';
import { readLog } from '../support/fakeServer.js';
import {
  CONTAINER_SYSTEM_PATH,
  containerCreations,
  containerHostPids,
  dockerAvailable,
  dockerWorkspace,
  eventually,
  innerPid,
  isAlive,
  mountNamespace,
  ownedContainers,
  recordedEnvs,
  removeOwnedContainers,
  startDockerEnv,
  stopDockerEnv,
  type DockerEnv,
} from './docker-support.js';

const root = mkdtempSync(join(tmpdir(), 'kandev-docker-exec-'));
let sessions = 0;
/** Every owner label used here, for cleanup. An executor sweeps its owner's containers on its first
 * start (as a restarted backend does), so each executor instance gets its own owner unless a test
 * means to share one. */
const owners: string[] = [];

function freshOwner(): string {
  const owner = `docker-executor-test-${process.pid}-${owners.length + 1}`;
  owners.push(owner);
  return owner;
}

interface ExecutorOptions {
  config?: Partial<DockerConfig>;
  agentctlBundle?: string;
  owner?: string;
}

function executor(docker: ReturnType<typeof createDockerClient>, options: ExecutorOptions = {}): LocalDockerExecutor {
  mkdirSync(join(root, 'logs'), { recursive: true });
  return new LocalDockerExecutor({
    docker,
    config: { host: undefined, image: undefined, network: 'host', mounts: [], seccomp: 'sandbox', ...options.config },
    runtime: {
      supportDir: join(root, 'runtime'),
      nodeBinary: process.execPath,
      agentctlBundle: options.agentctlBundle ?? join(repoRoot, 'apps/agentctl/dist/agentctl.mjs'),
    },
    owner: options.owner ?? freshOwner(),
    startTimeoutMs: 60_000,
    stopGraceMs: 10_000,
    logDir: join(root, 'logs'),
    log: createLogger({ targets: [] }),
  });
}

function task(repositories: string[], env: Record<string, string> = {}): Task {
  return {
    id: `task-${++sessions}`,
    title: 'docker',
    executor: 'local_docker',
    repositories: repositories.map((path) => ({ path })),
    env,
    createdAt: new Date().toISOString(),
    trustWorkspaceTools: false,
  };
}

function nextSession(): string {
  return `docker-exec-${process.pid}-${++sessions}`;
}

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('local_docker errors that need no Docker', () => {
  const absent = createDockerClient(`unix://${join(root, 'no-dockerd.sock')}`);

  it('says Docker is not reachable when no daemon answers', async () => {
    mkdirSync(join(root, 'repo-absent'), { recursive: true });
    const started = await executor(absent, { config: { image: 'any' } }).start({ sessionId: nextSession(), task: task([join(root, 'repo-absent')]) });
    expect(started).toMatchObject({ ok: false, error: { code: 'start_failed' } });
    expect(!started.ok && started.error.message).toMatch(/^Docker is not reachable .*is Docker installed and running/);
  });

  it('refuses a task without an image, or with a missing repository folder, before asking Docker', async () => {
    mkdirSync(join(root, 'repo-noimage'), { recursive: true });
    const noImage = await executor(absent).start({ sessionId: nextSession(), task: task([join(root, 'repo-noimage')]) });
    expect(noImage).toMatchObject({ ok: false, error: { code: 'start_failed' } });
    expect(!noImage.ok && noImage.error.message).toContain('set KANDEV_DOCKER_IMAGE');
    const missing = await executor(absent, { config: { image: 'any' } }).start({ sessionId: nextSession(), task: task([join(root, 'does-not-exist')]) });
    expect(missing).toMatchObject({ ok: false, error: { code: 'workspace_invalid' } });
    // A bind of a missing source must never reach Docker (it would create the folder on the host).
    expect(existsSync(join(root, 'does-not-exist'))).toBe(false);
  });
});

describe.skipIf(!dockerAvailable)('local_docker against a real dockerd (host networking)', () => {
  let env: DockerEnv;
  /** One executor for the suite, as one backend has one. */
  let shared: LocalDockerExecutor;
  let sharedOwner: string;
  const hosts: TaskHost[] = [];

  beforeAll(() => {
    env = startDockerEnv();
    ensureBuilt('agentctl');
    sharedOwner = freshOwner();
    shared = executor(env.docker, { config: { image: env.image }, owner: sharedOwner });
  });

  afterAll(async () => {
    await Promise.all(hosts.map((h) => h.stop()));
    if (env) for (const owner of owners) await removeOwnedContainers(env.docker, owner);
    stopDockerEnv(env);
  });

  async function start(repositories: string[], taskEnv: Record<string, string>, sessionId = nextSession()): Promise<TaskHost> {
    const started = await shared.start({ sessionId, task: task(repositories, taskEnv) });
    if (!started.ok) throw new Error(`${started.error.code}: ${started.error.message}`);
    hosts.push(started.value);
    return started.value;
  }

  function openStream(host: TaskHost, language = 'kotlin'): LspTestClient {
    const ws = host.endpoint.baseUrl.replace(/^http/, 'ws');
    // Trusted: the fake server is mounted inside the workspace (/workspace/.tools/bin), which an
    // untrusted stream never runs (docs/workspace-trust.md).
    return new LspTestClient(`${ws}/api/v1/lsp/stream?language=${language}&autoInstall=false&trustWorkspaceTools=true`, host.endpoint.token);
  }

  async function containerOf(sessionId: string): Promise<string> {
    const [info] = await env.docker.listContainers({ filters: { label: [`dev.kandev.session=${sessionId}`] } });
    if (!info) throw new Error(`no container for ${sessionId}`);
    return info.Id;
  }

  it('a missing image (default or the task override) is a clear error and creates no container', async () => {
    mkdirSync(join(root, 'repo-missing-image'), { recursive: true });
    const owner = freshOwner();
    const since = Date.now() / 1000;
    const missing = await executor(env.docker, { config: { image: 'kandev-no-such-image:1' }, owner }).start({
      sessionId: nextSession(),
      task: task([join(root, 'repo-missing-image')]),
    });
    expect(missing).toMatchObject({ ok: false, error: { code: 'start_failed' } });
    expect(!missing.ok && missing.error.message).toContain('the Docker image "kandev-no-such-image:1" is not on this machine');
    // The task's env names its own image, over a default that exists.
    const overridden = await executor(env.docker, { config: { image: env.image }, owner }).start({
      sessionId: nextSession(),
      task: task([join(root, 'repo-missing-image')], { KANDEV_DOCKER_IMAGE: 'kandev-task-image:2' }),
    });
    expect(!overridden.ok && overridden.error.message).toContain('"kandev-task-image:2" is not on this machine');
    expect(await containerCreations(env.docker, [`dev.kandev.owner=${owner}`], since, Date.now() / 1000)).toEqual([]);
  });

  it('S06 the language server is resolved and run inside the container, with the task environment and the container HOME', async () => {
    const ws = dockerWorkspace(join(root, 's06'), { 'Main.kt': 'fun main() {}\n' });
    process.env.KANDEV_HOST_ONLY_MARKER = 'the backend environment must not reach a container';
    const sessionId = nextSession();
    const host = await start([ws.dir], { ...ws.env, KANDEV_DOCKER_IMAGE: env.image, TASK_MARKER: 'from the task' }, sessionId);
    delete process.env.KANDEV_HOST_ONLY_MARKER;
    expect(host.workspace).toEqual({ workspacePath: '/workspace', workspaceUri: 'file:///workspace', repoSubpaths: [] });

    const client = openStream(host);
    expect(await client.status('ready')).toMatchObject({ workspaceUri: 'file:///workspace', workspacePath: '/workspace' });
    const init = await client.request('initialize', { processId: null, rootUri: 'file:///workspace', capabilities: {} });
    expect(init.result).toMatchObject({ serverInfo: { name: 'fake-lsp-server' } });

    // The server's own record: launched from a path that exists only inside the container.
    const [first] = readLog(ws.logFile);
    expect(first).toMatchObject({ argv0: '/workspace/.tools/fake-lsp-server.mjs', message: { method: 'initialize' } });
    // From this machine's side: find that process among the container's, by its in-container pid.
    const pids = await containerHostPids(env.docker, await containerOf(sessionId));
    const serverHostPid = pids.find((pid) => innerPid(pid) === first?.pid);
    expect(serverHostPid).toBeDefined();
    expect(serverHostPid).not.toBe(first?.pid);
    expect(mountNamespace(serverHostPid as number)).not.toBe(mountNamespace('self'));

    const [serverEnv] = recordedEnvs(ws);
    expect(serverEnv?.PATH).toBe(`/workspace/.tools/bin:${CONTAINER_SYSTEM_PATH}:/opt/kandev/bin`);
    expect(serverEnv?.TASK_MARKER).toBe('from the task');
    expect(serverEnv?.HOME).toBe('/root');
    // Neither agentctl's own variables, nor the image choice, nor anything of the backend's environment.
    expect(Object.keys(serverEnv ?? {}).filter((k) => k.startsWith('AGENTCTL_') || k === 'KANDEV_DOCKER_IMAGE' || k === 'KANDEV_HOST_ONLY_MARKER')).toEqual([]);
    client.close();
  });

  it('mounts several repositories at /workspace/<name>, served by agentctl as repository subpaths', async () => {
    const alpha = dockerWorkspace(join(root, 'multi', 'alpha'), { 'a.txt': 'alpha\n' });
    const beta = dockerWorkspace(join(root, 'multi', 'beta'), { 'b.txt': 'beta\n' });
    const host = await start([alpha.dir, beta.dir], {});
    expect(host.workspace).toEqual({ workspacePath: '/workspace', workspaceUri: 'file:///workspace', repoSubpaths: ['alpha', 'beta'] });
    const read = async (path: string) => {
      const res = await fetch(`${host.endpoint.baseUrl}/api/v1/file?path=${encodeURIComponent(path)}`, {
        headers: { authorization: `Bearer ${host.endpoint.token}` },
      });
      return (await res.json()) as { content?: string };
    };
    expect(await read('alpha/a.txt')).toMatchObject({ content: 'alpha\n' });
    expect(await read('beta/b.txt')).toMatchObject({ content: 'beta\n' });
  });

  it('S55 stopping the task host removes its container and leaves no process behind, detached descendants included', async () => {
    const ws = dockerWorkspace(join(root, 's55'), { 'Main.kt': '' }, { onStart: [{ spawnDescendant: { detached: true } }, { spawnDescendant: {} }] });
    const sessionId = nextSession();
    const host = await start([ws.dir], ws.env, sessionId);
    const client = openStream(host);
    await client.status('ready');
    expect(await eventually(() => readLog(ws.logFile).filter((l) => 'spawned' in l.message).length === 2)).toBe(true);
    const containerId = await containerOf(sessionId);
    const pids = await containerHostPids(env.docker, containerId);
    const spawned = readLog(ws.logFile)
      .map((l) => (l.message as { spawned?: number }).spawned)
      .filter((p): p is number => typeof p === 'number');
    // docker-init, agentctl, the server and both sleepers are really running before the stop.
    expect(spawned.every((inner) => pids.some((pid) => innerPid(pid) === inner))).toBe(true);
    expect(pids.length).toBeGreaterThanOrEqual(5);

    const exit = await host.stop();
    expect(exit).toMatchObject({ requested: true, code: 0 });
    expect(pids.filter(isAlive)).toEqual([]);
    await expect(env.docker.getContainer(containerId).inspect()).rejects.toMatchObject({ statusCode: 404 });
    expect((await client.closed).code).toBe(1001);
    // Idempotent: a second stop settles with the same exit.
    expect(await host.stop()).toEqual(exit);
  });

  it('a container that dies on its own settles `exited` as unrequested, and is removed', async () => {
    const ws = dockerWorkspace(join(root, 'crash'), {});
    const sessionId = nextSession();
    const host = await start([ws.dir], ws.env, sessionId);
    const containerId = await containerOf(sessionId);
    await env.docker.getContainer(containerId).kill({ signal: 'SIGKILL' });
    expect(await host.exited).toMatchObject({ requested: false, code: 137 });
    await expect(env.docker.getContainer(containerId).inspect()).rejects.toMatchObject({ statusCode: 404 });
    expect((await ownedContainers(env.docker, sharedOwner)).some((c) => c.Id === containerId)).toBe(false);
  });

  it('writes agentctl logs to the session log file', async () => {
    const ws = dockerWorkspace(join(root, 'logs-ws'), {});
    const sessionId = nextSession();
    const host = await start([ws.dir], ws.env, sessionId);
    await host.stop();
    const lines = readFileSync(join(root, 'logs', `agentctl-${sessionId}.log`), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { event?: string });
    expect(lines.map((l) => l.event)).toEqual(expect.arrayContaining(['starting', 'listening', 'shutdown_done']));
  });

  it('an agentctl that dies before listening is a clear error with its last words, and its container is removed', async () => {
    const bundle = join(root, 'broken-agentctl.mjs');
    writeFileSync(bundle, "process.stderr.write('cannot start: broken on purpose\\n'); process.exit(3);\n");
    mkdirSync(join(root, 'repo-broken'), { recursive: true });
    const sessionId = nextSession();
    const owner = freshOwner();
    const since = Date.now() / 1000;
    const started = await executor(env.docker, { config: { image: env.image }, agentctlBundle: bundle, owner }).start({
      sessionId,
      task: task([join(root, 'repo-broken')]),
    });
    expect(started).toMatchObject({ ok: false, error: { code: 'start_failed' } });
    expect(!started.ok && started.error.message).toMatch(/agentctl exited before it listened; it said: .*broken on purpose/);
    // It was created (and ran), and it is gone.
    expect(await containerCreations(env.docker, [`dev.kandev.owner=${owner}`], since, Date.now() / 1000)).toHaveLength(1);
    expect(await env.docker.listContainers({ all: true, filters: { label: [`dev.kandev.session=${sessionId}`] } })).toEqual([]);
  });

  it('a restarted backend (same owner) removes the containers its predecessor left running', async () => {
    const ws = dockerWorkspace(join(root, 'leftover'), {});
    const owner = freshOwner();
    const orphanSession = nextSession();
    const predecessor = await executor(env.docker, { config: { image: env.image }, owner }).start({ sessionId: orphanSession, task: task([ws.dir], ws.env) });
    if (!predecessor.ok) throw new Error(predecessor.error.message);
    const orphan = predecessor.value;
    const orphanContainer = await containerOf(orphanSession);
    // A new executor for the same owner is what a restarted backend builds; its first start sweeps.
    const successor = await executor(env.docker, { config: { image: env.image }, owner }).start({ sessionId: nextSession(), task: task([ws.dir], ws.env) });
    if (!successor.ok) throw new Error(successor.error.message);
    hosts.push(successor.value);
    expect(await orphan.exited).toMatchObject({ requested: false });
    await expect(env.docker.getContainer(orphanContainer).inspect()).rejects.toMatchObject({ statusCode: 404 });
    expect((await successor.value.stop()).requested).toBe(true);
  });
});
