/**
 * Local Docker through the real backend (startBackend in this process, its own KANDEV_HOME; the
 * containers run the built agentctl bundle): sessions whose agentctl runs in a container on host
 * networking, files and LSP through the backend, stop, and the executors that must close 4004
 * before anything starts.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ExecutorKind, Session, Task } from '@kandev/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspTestClient } from '../../apps/agentctl/src/testing/agentctlProcess.js';
import { TEST_ACCESS_TOKEN } from '../support/access.js';
import { readLog } from '../support/fakeServer.js';
import { startReleaseServer, type ReleaseServer } from '../fixtures/release-server/server.js';
import { ensureBuilt, repoRoot } from '../support/build.js';
import { startStack } from '../support/stack.js';
import { childPids, startTestBackend, type TestBackend } from './backend-support.js';
import {
  CONTAINER_SYSTEM_PATH,
  containerCreations,
  containerHostPids,
  dockerAvailable,
  dockerBackendEnv,
  type DockerEnv,
  dockerWorkspace,
  type DockerWorkspace,
  eventually,
  innerPid,
  isAlive,
  languageServerPids,
  mountNamespace,
  ownedContainers,
  removeOwnedContainers,
  startDockerEnv,
  stopDockerEnv,
} from './docker-support.js';

const root = mkdtempSync(join(tmpdir(), 'kandev-docker-backend-'));

describe.skipIf(!dockerAvailable)('local_docker sessions through the backend', () => {
  let env: DockerEnv;
  let stack: TestBackend;

  beforeAll(async () => {
    env = startDockerEnv();
    ensureBuilt('agentctl');
    stack = await startTestBackend({
      ...dockerBackendEnv(env),
      // A read-only toolchain for every task container: the repository's npm language servers.
      KANDEV_DOCKER_MOUNTS: JSON.stringify([`${join(repoRoot, 'node_modules')}:/opt/tools/node_modules:ro`]),
    });
  });

  afterAll(async () => {
    const home = stack?.home;
    await stack?.close();
    if (env && home) await removeOwnedContainers(env.docker, home);
    stopDockerEnv(env);
    rmSync(root, { recursive: true, force: true });
  });

  /** A JSON API call that must succeed. */
  async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await stack.api(method, path, body);
    if (res.status >= 400) throw new Error(`${method} ${path} -> ${res.status}: ${JSON.stringify(res.json)}`);
    return res.json as T;
  }

  async function dockerSession(ws: DockerWorkspace): Promise<Session> {
    const task = await api<Task>('POST', '/api/tasks', { title: 'docker', executor: 'local_docker', repositories: [{ path: ws.dir }], env: ws.env });
    // The fake server is mounted inside the workspace (/workspace/.tools/bin on the task PATH), which
    // only a task that trusts its workspace's tools may run (docs/workspace-trust.md).
    await api('PATCH', `/api/tasks/${task.id}`, { trustWorkspaceTools: true });
    return api<Session>('POST', `/api/tasks/${task.id}/sessions`);
  }

  function openLsp(sessionId: string, language = 'kotlin'): LspTestClient {
    return new LspTestClient(`${stack.url.replace(/^http/, 'ws')}/lsp/${sessionId}?language=${language}`, TEST_ACCESS_TOKEN);
  }

  async function initialize(client: LspTestClient): Promise<Record<string, unknown>> {
    const ready = await client.status('ready');
    await client.request('initialize', {
      processId: null,
      rootUri: ready.workspaceUri,
      workspaceFolders: [{ uri: ready.workspaceUri, name: 'workspace' }],
      capabilities: {},
    });
    client.notify('initialized', {});
    return ready;
  }

  async function containerOf(sessionId: string): Promise<string> {
    const [info] = await env.docker.listContainers({ filters: { label: [`dev.kandev.session=${sessionId}`] } });
    if (!info) throw new Error(`no container for session ${sessionId}`);
    return info.Id;
  }

  it('S06 an LSP started for a Docker task runs its server inside the container, not on this host', async () => {
    const ws = dockerWorkspace(join(root, 's06'), { 'Main.kt': 'fun main() {}\n' });
    const session = await dockerSession(ws);
    expect(session).toMatchObject({ status: 'running', workspacePath: '/workspace' });
    const client = openLsp(session.id);
    expect(await initialize(client)).toMatchObject({ status: 'ready', workspaceUri: 'file:///workspace', language: 'kotlin' });
    const launched = readLog(ws.logFile)[0];
    expect(launched).toMatchObject({ argv0: '/workspace/.tools/fake-lsp-server.mjs', message: { method: 'initialize' } });
    const serverHostPid = (await containerHostPids(env.docker, await containerOf(session.id))).find((pid) => innerPid(pid) === launched?.pid);
    expect(serverHostPid).toBeDefined();
    // Another mount namespace than this machine's: the container's file system, binaries and all.
    expect(mountNamespace(serverHostPid as number)).not.toBe(mountNamespace('self'));
    client.close();
  });

  it('S06 a real typescript-language-server from a mounted toolchain answers hover inside the container', async () => {
    const dir = join(root, 's06-ts');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022' } }));
    writeFileSync(join(dir, 'a.ts'), 'export function hello(name: string): string { return name; }\n');
    const task = await api<Task>('POST', '/api/tasks', {
      title: 'ts',
      executor: 'local_docker',
      repositories: [{ path: dir }],
      env: { PATH: `/opt/tools/node_modules/.bin:${CONTAINER_SYSTEM_PATH}` },
    });
    const session = await api<Session>('POST', `/api/tasks/${task.id}/sessions`);
    const client = openLsp(session.id, 'typescript');
    await initialize(client);
    client.notify('textDocument/didOpen', {
      textDocument: {
        uri: 'file:///workspace/a.ts',
        languageId: 'typescript',
        version: 1,
        text: 'export function hello(name: string): string { return name; }\n',
      },
    });
    const hover = await client.request('textDocument/hover', { textDocument: { uri: 'file:///workspace/a.ts' }, position: { line: 0, character: 17 } });
    expect(JSON.stringify(hover.result)).toContain('function hello(name: string): string');
    const pids = await containerHostPids(env.docker, await containerOf(session.id));
    const server = languageServerPids(pids, 'typescript-language-server')[0];
    expect(server).toBeDefined();
    expect(mountNamespace(server as number)).not.toBe(mountNamespace('self'));
    client.close();
  });

  it('S11 (Docker half) a Linux container installs rust-analyzer itself when auto-install is on, into the container HOME', async () => {
    const ws = dockerWorkspace(join(root, 's11'), { 'main.rs': 'fn main() {}\n' });
    // The "release" is a launcher of the fake server, as a gzip archive with its sha256, from 127.0.0.1.
    const binary = gzipSync(Buffer.from('#!/bin/sh\nexec node /workspace/.tools/fake-lsp-server.mjs "$@"\n'));
    const name = `rust-analyzer-${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-unknown-linux-gnu.gz`;
    const release: ReleaseServer = await startReleaseServer({
      [name]: binary,
      [`${name}.sha256`]: `${createHash('sha256').update(binary).digest('hex')}  ${name}\n`,
    });
    try {
      await api('PUT', '/api/settings', { lsp_auto_install_languages: ['rust'] });
      const task = await api<Task>('POST', '/api/tasks', {
        title: 'rust',
        executor: 'local_docker',
        repositories: [{ path: ws.dir }],
        env: { ...ws.env, KANDEV_RUST_ANALYZER_BASE_URL: release.baseUrl },
      });
      const session = await api<Session>('POST', `/api/tasks/${task.id}/sessions`);
      const client = openLsp(session.id, 'rust');
      await initialize(client);
      expect(client.frames.filter((f) => typeof f.status === 'string').map((f) => f.status)).toEqual(['installing', 'installed', 'ready']);
      expect(release.requests).toContain(`/download/${name}`);
      const launched = readLog(ws.logFile)[0];
      const serverHostPid = (await containerHostPids(env.docker, await containerOf(session.id))).find((pid) => innerPid(pid) === launched?.pid);
      expect(serverHostPid).toBeDefined();
      // Installed in the container's own file system, under the container's HOME (/root).
      expect(existsSync(`/proc/${serverHostPid}/root/root/.kandev/lsp-servers/rust/rust-analyzer`)).toBe(true);
      client.close();
    } finally {
      await api('PUT', '/api/settings', { lsp_auto_install_languages: [] });
      await release.close();
    }
  });

  it('S32 two Docker tasks rooted at /workspace stay isolated: own files, own server, the same clean URI', async () => {
    const a = dockerWorkspace(join(root, 's32-a'), { 'same.kt': 'val owner = "A"\n' });
    const b = dockerWorkspace(join(root, 's32-b'), { 'same.kt': 'val owner = "B"\n' });
    const [sa, sb] = [await dockerSession(a), await dockerSession(b)];
    expect([sa.workspacePath, sb.workspacePath]).toEqual(['/workspace', '/workspace']);
    type Read = { content: string; version: string };
    const readA = await api<Read>('GET', `/api/sessions/${sa.id}/file?path=same.kt`);
    expect(readA.content).toBe('val owner = "A"\n');
    expect((await api<Read>('GET', `/api/sessions/${sb.id}/file?path=same.kt`)).content).toBe('val owner = "B"\n');
    await api('PUT', `/api/sessions/${sa.id}/file?path=same.kt`, { content: 'val owner = "A2"\n', baseVersion: readA.version });
    expect((await api<Read>('GET', `/api/sessions/${sb.id}/file?path=same.kt`)).content).toBe('val owner = "B"\n');

    const [ca, cb] = [openLsp(sa.id), openLsp(sb.id)];
    for (const [client, text] of [
      [ca, 'val owner = "A2"\n'],
      [cb, 'val owner = "B"\n'],
    ] as const) {
      expect(await initialize(client)).toMatchObject({ workspaceUri: 'file:///workspace', workspacePath: '/workspace' });
      client.notify('textDocument/didOpen', { textDocument: { uri: 'file:///workspace/same.kt', languageId: 'kotlin', version: 1, text } });
    }
    const opened = (ws: DockerWorkspace) => readLog(ws.logFile).find((l) => l.message.method === 'textDocument/didOpen');
    expect(await eventually(() => opened(a) !== undefined && opened(b) !== undefined)).toBe(true);
    // Each server saw the clean task-host URI and its own session's content, nothing of the other.
    expect(opened(a)?.message.params.textDocument).toMatchObject({ uri: 'file:///workspace/same.kt', text: 'val owner = "A2"\n' });
    expect(opened(b)?.message.params.textDocument).toMatchObject({ uri: 'file:///workspace/same.kt', text: 'val owner = "B"\n' });
    expect(readLog(a.logFile).find((l) => l.message.method === 'initialize')?.message.params.rootUri).toBe('file:///workspace');
    expect(readLog(b.logFile).find((l) => l.message.method === 'initialize')?.message.params.rootUri).toBe('file:///workspace');
    expect(await containerOf(sa.id)).not.toBe(await containerOf(sb.id));
    ca.close();
    cb.close();
  });

  it('S55 stopping a Docker session removes its container and every process in it', async () => {
    const ws = dockerWorkspace(join(root, 's55'), { 'Main.kt': '' }, { onStart: [{ spawnDescendant: { detached: true } }] });
    const session = await dockerSession(ws);
    const client = openLsp(session.id);
    await initialize(client);
    expect(await eventually(() => readLog(ws.logFile).some((l) => 'spawned' in l.message))).toBe(true);
    const containerId = await containerOf(session.id);
    const pids = await containerHostPids(env.docker, containerId);
    const sleeper = (readLog(ws.logFile).find((l) => 'spawned' in l.message)?.message as { spawned: number }).spawned;
    expect(pids.some((pid) => innerPid(pid) === sleeper)).toBe(true);

    expect(await api<Session>('POST', `/api/sessions/${session.id}/stop`)).toMatchObject({ status: 'stopped' });
    expect(pids.filter(isAlive)).toEqual([]);
    await expect(env.docker.getContainer(containerId).inspect()).rejects.toMatchObject({ statusCode: 404 });
    // The browser's stream ends too (which close code is the gateway's policy, not the executor's).
    await client.closed;
  });

  it('S55 a backend that dies (SIGKILL) and is not started again leaves no task container or process behind once the restart grace is over', async () => {
    // The built backend, as users run it, in its own process so it can really die.
    // A task host outlives a dead backend for the restart grace, then ends itself: kept short here.
    const doomed = await startStack({
      ...dockerBackendEnv(env),
      KANDEV_LOG_STDERR: '0',
      KANDEV_RESTART_GRACE_MS: '1500',
    });
    try {
      const ws = dockerWorkspace(join(root, 'backend-dies'), { 'Main.kt': '' }, { onStart: [{ spawnDescendant: { detached: true } }] });
      const task = await doomed.createTask({ executor: 'local_docker', workspace: ws.dir, env: ws.env });
      await doomed.api(`/api/tasks/${task.id}`, { method: 'PATCH', body: { trustWorkspaceTools: true } }); // fake server inside the workspace
      const session = await doomed.startSession(task.id);
      expect(session.status).toBe('running');
      const client = new LspTestClient(`${doomed.url.replace(/^http/, 'ws')}/lsp/${session.id}?language=kotlin`, TEST_ACCESS_TOKEN);
      await client.status('ready');
      expect(await eventually(() => readLog(ws.logFile).some((l) => 'spawned' in l.message))).toBe(true);
      const [container] = await ownedContainers(env.docker, doomed.home);
      const pids = await containerHostPids(env.docker, container?.Id as string);
      expect(pids.length).toBeGreaterThanOrEqual(4);

      doomed.process.kill('SIGKILL');
      // No one stops it and no backend re-adopts it: once the grace is over agentctl ends itself, and Docker removes the container.
      expect(await eventually(async () => (await ownedContainers(env.docker, doomed.home)).length === 0)).toBe(true);
      expect(pids.filter(isAlive)).toEqual([]);
    } finally {
      // stack.stop() waits for an 'exit' that already happened when the process was killed (its
      // exitCode stays null after a signal), so a dead stack is cleaned up here.
      if (doomed.process.exitCode === null && doomed.process.signalCode === null) await doomed.stop();
      else rmSync(doomed.home, { recursive: true, force: true });
      await removeOwnedContainers(env.docker, doomed.home);
    }
  });

  it.each<ExecutorKind>(['remote_docker', 'ssh', 'sprites'])('S26 an LSP request for a %s task closes 4004 and starts no container', async (executor) => {
    const dir = join(root, `s26-${executor}`);
    mkdirSync(dir, { recursive: true });
    const since = Date.now() / 1000;
    const containersBefore = (await ownedContainers(env.docker, stack.home)).map((c) => c.Id);
    const agentctlsBefore = childPids(process.pid, 'agentctl');
    const task = await api<Task>('POST', '/api/tasks', { title: executor, executor, repositories: [{ path: dir }], env: {} });
    const start = await stack.api('POST', `/api/tasks/${task.id}/sessions`);
    expect(start).toMatchObject({ status: 422, json: { error: { code: 'executor_unsupported' } } });
    const session = start.json.session as Session;
    const client = openLsp(session.id, 'typescript');
    expect(await client.opened).toBe(true);
    expect((await client.closed).code).toBe(4004);
    expect((await ownedContainers(env.docker, stack.home)).map((c) => c.Id)).toEqual(containersBefore);
    expect(childPids(process.pid, 'agentctl')).toEqual(agentctlsBefore);
    expect(await containerCreations(env.docker, [`dev.kandev.owner=${stack.home}`], since, Date.now() / 1000)).toEqual([]);
    expect(await containerCreations(env.docker, [`dev.kandev.session=${session.id}`], since - 60, Date.now() / 1000)).toEqual([]);
  });
});
