/**
 * No orphan, ever (Local Docker): the task container runs docker-init as PID 1 above agentctl, so
 * whatever dies (agentctl by SIGKILL from this host, the backend by SIGKILL) or however hard the
 * server resists (it ignores stdin EOF and SIGTERM, a stubborn child in its group, another in its
 * own session), ending agentctl ends the container's PID namespace and every process in it.
 * Checked on this host's /proc at the moment the backend reports the task host gone.
 */
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Session, Task } from '@kandev/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { readLog } from '../support/fakeServer.js';
import { startStack } from '../support/stack.js';
import {
  containerHostPids,
  dockerAvailable,
  dockerBackendEnv,
  type DockerEnv,
  dockerWorkspace,
  type DockerWorkspace,
  eventually,
  innerPid,
  isAlive,
  ownedContainers,
  removeOwnedContainers,
  startDockerEnv,
  stopDockerEnv,
} from './docker-support.js';
import { LeaseClient, startLeaseBackend, type LeaseBackend } from './lease-support.js';

const root = mkdtempSync(join(tmpdir(), 'kandev-faults-docker-'));

const stubborn: FakeScript = {
  capabilities: { hoverProvider: true },
  ignoreEof: true,
  ignoreSigterm: true,
  onStart: [
    { spawnDescendant: { ignoreSigterm: true } },
    { spawnDescendant: { detached: true, ignoreSigterm: true } },
    { spawnDescendant: { detached: true } },
  ],
};

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

describe.skipIf(!dockerAvailable)('Local Docker: no language-server process outlives its task host', () => {
  let env: DockerEnv;
  let stack: LeaseBackend;

  beforeAll(async () => {
    env = startDockerEnv();
    stack = await startLeaseBackend({
      ...dockerBackendEnv(env),
      KANDEV_AGENTCTL_STOP_GRACE_MS: '3000',
    });
  });

  afterAll(async () => {
    await stack?.close();
    stopDockerEnv(env);
    rmSync(root, { recursive: true, force: true });
  });

  async function dockerSession(name: string): Promise<{ session: Session; ws: DockerWorkspace; client: LeaseClient; pids: number[] }> {
    const ws = dockerWorkspace(join(root, name), { 'Main.kt': 'fun main() {}\n' }, stubborn);
    const task = (await stack.api('POST', '/api/tasks', { title: name, executor: 'local_docker', repositories: [{ path: ws.dir }], env: ws.env })).json as Task;
    // The fake server lives inside the workspace mount, which an untrusted stream never runs.
    await stack.api('PATCH', `/api/tasks/${task.id}`, { trustWorkspaceTools: true });
    const session = (await stack.api('POST', `/api/tasks/${task.id}/sessions`)).json as Session;
    expect(session.status).toBe('running');
    const client = new LeaseClient(stack.url, session.id, 'kotlin');
    await client.initialize();
    expect(await eventually(() => readLog(ws.logFile).filter((l) => 'spawned' in l.message).length === 3)).toBe(true);
    const [info] = await env.docker.listContainers({ filters: { label: [`dev.kandev.session=${session.id}`] } });
    const pids = await containerHostPids(env.docker, info?.Id as string);
    // docker-init, agentctl, the server and its three descendants (the setsid ones included).
    const inner = new Set(pids.map(innerPid));
    for (const l of readLog(ws.logFile).filter((l) => 'spawned' in l.message)) expect(inner.has(l.message.spawned as number)).toBe(true);
    expect(pids.length).toBeGreaterThanOrEqual(6);
    return { session, ws, client, pids };
  }

  it('S55 agentctl killed with SIGKILL inside the container: docker-init exits with it and the container takes every process along', async () => {
    const { session, client, pids } = await dockerSession('agentctl-sigkill');
    const host = stack.backend.sessions.liveHost(session.id);
    const agentctl = pids.find((pid) => cmdline(pid).includes('agentctl'));
    expect(agentctl).toBeDefined();

    process.kill(agentctl as number, 'SIGKILL');
    expect(await host!.exited).toMatchObject({ requested: false });
    // `exited` settles once the container is removed: at that moment nothing of it runs.
    expect(pids.filter(isAlive)).toEqual([]);
    await client.closed;
  });

  it('S55 stopping the session ends a server that ignores EOF and SIGTERM, and its setsid children, before the stop is answered', async () => {
    const { session, client, pids } = await dockerSession('session-stop');
    expect((await stack.api('POST', `/api/sessions/${session.id}/stop`)).json).toMatchObject({ status: 'stopped' });
    expect(pids.filter(isAlive)).toEqual([]);
    await client.closed;
  });

  it('S55 a backend killed with SIGKILL and not started again leaves no container or process of a stubborn server behind once the restart grace is over', async () => {
    const doomed = await startStack({
      ...dockerBackendEnv(env),
      KANDEV_LOG_STDERR: '0',
      KANDEV_RESTART_GRACE_MS: '1500',
    });
    try {
      const ws = dockerWorkspace(join(root, 'backend-sigkill'), { 'Main.kt': '' }, stubborn);
      const task = await doomed.createTask({ executor: 'local_docker', workspace: ws.dir, env: ws.env });
      await doomed.api(`/api/tasks/${task.id}`, { method: 'PATCH', body: { trustWorkspaceTools: true } }); // fake server inside the workspace
      const session = await doomed.startSession(task.id);
      const client = new LeaseClient(doomed.url, session.id, 'kotlin');
      await client.initialize();
      expect(await eventually(() => readLog(ws.logFile).filter((l) => 'spawned' in l.message).length === 3)).toBe(true);
      const [container] = await ownedContainers(env.docker, doomed.home);
      const pids = await containerHostPids(env.docker, container?.Id as string);
      expect(pids.length).toBeGreaterThanOrEqual(6);

      const gone = new Promise((resolve) => doomed.process.once('exit', resolve));
      doomed.process.kill('SIGKILL');
      await gone;
      // Nobody is left to report it: the container's disappearance is polled, then the processes checked.
      expect(await eventually(async () => (await ownedContainers(env.docker, doomed.home)).length === 0)).toBe(true);
      expect(pids.filter(isAlive)).toEqual([]);
    } finally {
      await removeOwnedContainers(env.docker, doomed.home);
      rmSync(doomed.home, { recursive: true, force: true });
    }
  });
});
