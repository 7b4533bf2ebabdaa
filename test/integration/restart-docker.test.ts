/**
 * A backend restart keeps a Local Docker task host: the backend is SIGKILLed with a leased server
 * in a task container, started again on the same KANDEV_HOME, and re-adopts the very same container
 * (same id, same server process); the lease hint resumes without a second `initialize`. A stop
 * then still stops: SIGTERM removes the container with every process in it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { readLog } from '../support/fakeServer.js';
import { startStack, type RunningStack } from '../support/stack.js';
import {
  containerHostPids,
  dockerAvailable,
  dockerWorkspace,
  isAlive,
  ownedContainers,
  removeOwnedContainers,
  startDockerEnv,
  stopDockerEnv,
  type DockerEnv,
} from './docker-support.js';
import { LeaseClient } from './lease-support.js';

const root = mkdtempSync(join(tmpdir(), 'kandev-restart-docker-'));
const home = join(root, 'home');
const script: FakeScript = { capabilities: { hoverProvider: true } };

describe.skipIf(!dockerAvailable)('Local Docker: a backend restart re-adopts the task container', () => {
  let env: DockerEnv;
  const stacks: RunningStack[] = [];

  beforeAll(() => {
    env = startDockerEnv();
  });

  afterAll(async () => {
    for (const stack of stacks) await stack.stop().catch(() => undefined);
    if (env) await removeOwnedContainers(env.docker, home);
    stopDockerEnv(env);
    rmSync(root, { recursive: true, force: true });
  });

  const backend = async () => {
    const stack = await startStack({
      KANDEV_HOME: home,
      DOCKER_HOST: env.dockerHost,
      KANDEV_DOCKER_IMAGE: env.image,
      KANDEV_DOCKER_NETWORK: 'host',
      KANDEV_LOG_STDERR: '0',
      KANDEV_RESTART_GRACE_MS: '60000',
    });
    stacks.push(stack);
    return stack;
  };

  it('C05 across a backend restart: a SIGKILLed backend started again re-adopts the same container and server; the lease resumes; SIGTERM then removes it all', async () => {
    const ws = dockerWorkspace(join(root, 'workspace'), { 'Main.kt': 'fun main() {}\n' }, script);
    const first = await backend();
    const task = await first.createTask({ executor: 'local_docker', workspace: ws.dir, env: ws.env });
    // The fake server lives inside the workspace mount, which an untrusted stream never runs.
    await first.api(`/api/tasks/${task.id}`, { method: 'PATCH', body: { trustWorkspaceTools: true } });
    const session = await first.startSession(task.id);
    const client = new LeaseClient(first.url, session.id, 'kotlin');
    const { ready } = await client.initialize();
    const [container] = await ownedContainers(env.docker, home);
    const pids = await containerHostPids(env.docker, container?.Id as string);
    const serverPid = readLog(ws.logFile)[0]?.pid;
    // Written down once the backend saw `initialized`: a hover round trip orders it before the kill.
    await client.request('textDocument/hover', { textDocument: { uri: `${ready.workspaceUri}/Main.kt` }, position: { line: 0, character: 4 } });

    const died = new Promise((resolve) => first.process.once('exit', resolve));
    first.process.kill('SIGKILL');
    await died;
    await client.closed;

    const second = await backend();
    expect(await second.api(`/api/sessions/${session.id}`)).toMatchObject({ status: 'running' });
    expect((await ownedContainers(env.docker, home)).map((c) => c.Id)).toEqual([container?.Id]);
    const back = new LeaseClient(second.url, session.id, 'kotlin', ready.lease as string);
    expect(await back.resume([])).toMatchObject({ lease: ready.lease, resumed: true });
    const answer = await back.request('textDocument/hover', { textDocument: { uri: `${ready.workspaceUri}/Main.kt` }, position: { line: 0, character: 4 } });
    expect(answer.error).toBeUndefined();
    // One server process all along: it received one initialize.
    const log = readLog(ws.logFile);
    expect([...new Set(log.map((l) => l.pid))]).toEqual([serverPid]);
    expect(log.filter((l) => l.message.method === 'initialize')).toHaveLength(1);
    expect(pids.filter(isAlive)).toEqual(pids);

    const stopped = new Promise((resolve) => second.process.once('exit', resolve));
    second.process.kill('SIGTERM');
    await stopped;
    expect(await ownedContainers(env.docker, home)).toEqual([]);
    expect(pids.filter(isAlive)).toEqual([]);
  });
});
