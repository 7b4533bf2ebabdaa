import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_ACCESS_TOKEN } from '../support/access.js';
import { repoRoot } from '../support/build.js';
import { copyDemoWorkspace, startStack, type RunningStack } from '../support/stack.js';
import { BrowserClient, childPids, descendants } from './backend-support.js';
import {
  CONTAINER_SYSTEM_PATH,
  containerHostPids,
  dockerAvailable,
  dockerBackendEnv,
  type DockerEnv,
  removeOwnedContainers,
  startDockerEnv,
  stopDockerEnv,
} from './docker-support.js';

/**
 * secrets at rest and in flight: agentctl's bearer token reaches agentctl through its
 * environment only (never argv, where every local user can read it in /proc/PID/cmdline), and
 * neither it nor the access token is written to any log, for Local PC and for Local Docker.
 */

/** Every readable /proc/PID/cmdline on this machine, NUL separators as spaces. */
function allCmdlines(): Array<{ pid: number; cmdline: string }> {
  const out: Array<{ pid: number; cmdline: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      out.push({ pid: Number(entry), cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ') });
    } catch {
      // exited meanwhile, or not ours to read
    }
  }
  return out;
}

function environ(pid: number): Record<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(entries.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
}

/** Every log the backend and its agentctls wrote under KANDEV_HOME/logs. */
function allLogs(home: string): string {
  const dir = join(home, 'logs');
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

function expectNowhere(secret: string, home: string): void {
  expect(secret.length).toBeGreaterThanOrEqual(32);
  const holders = allCmdlines().filter((p) => p.cmdline.includes(secret));
  expect(holders).toEqual([]);
  expect(allLogs(home)).not.toContain(secret);
}

async function openReady(stack: RunningStack, sessionId: string, language: string): Promise<BrowserClient> {
  const client = BrowserClient.open(stack.url, sessionId, language, { token: TEST_ACCESS_TOKEN });
  await client.waitFor((f) => f.status === 'ready');
  return client;
}

describe('Local PC: tokens stay out of argv and logs', () => {
  let stack: RunningStack | undefined;
  afterAll(() => stack?.stop());

  it('agentctl gets its token by environment; no process argv and no log holds it or the access token', async () => {
    stack = await startStack();
    const task = await stack.createTask({ title: 'access', workspace: copyDemoWorkspace() });
    const session = await stack.startSession(task.id);
    const [agentctl] = childPids(stack.process.pid as number, 'agentctl');
    expect(agentctl).toBeGreaterThan(0);
    const client = await openReady(stack, session.id, 'typescript');
    // A language server runs under agentctl now: its argv is checked too.
    const servers = descendants(agentctl as number);
    expect(servers.length).toBeGreaterThan(0);

    const token = environ(agentctl as number).AGENTCTL_TOKEN as string;
    expectNowhere(token, stack.home);
    expectNowhere(TEST_ACCESS_TOKEN, stack.home);
    // Neither agentctl nor the servers it starts (repository-controlled code) get the access token,
    // and the servers do not inherit agentctl's token.
    expect(Object.values(environ(agentctl as number))).not.toContain(TEST_ACCESS_TOKEN);
    for (const pid of servers) {
      try {
        expect(Object.values(environ(pid))).not.toContain(token);
        expect(Object.values(environ(pid))).not.toContain(TEST_ACCESS_TOKEN);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    client.ws.close(1000);
    await client.closed;
  });
});

describe.runIf(dockerAvailable)('Local Docker: tokens stay out of argv and logs', () => {
  let env: DockerEnv | undefined;
  let stack: RunningStack | undefined;
  afterAll(async () => {
    const home = stack?.home;
    await stack?.stop();
    if (env && home) await removeOwnedContainers(env.docker, home);
    stopDockerEnv(env);
  });

  it('the container gets agentctl token by its environment (visible to root through docker inspect only), never by argv', async () => {
    env = startDockerEnv();
    stack = await startStack({
      ...dockerBackendEnv(env),
      KANDEV_DOCKER_MOUNTS: JSON.stringify([`${join(repoRoot, 'node_modules')}:/opt/tools/node_modules:ro`]),
    });
    const task = await stack.api<{ id: string }>('/api/tasks', {
      body: {
        title: 'docker access',
        executor: 'local_docker',
        repositories: [{ path: copyDemoWorkspace() }],
        env: { PATH: `/opt/tools/node_modules/.bin:${CONTAINER_SYSTEM_PATH}` },
      },
    });
    const session = await stack.startSession(task.id);
    const [container] = await env.docker.listContainers({ filters: { label: [`dev.kandev.session=${session.id}`] } });
    expect(container).toBeDefined();
    const inspected = await env.docker.getContainer(container!.Id).inspect();
    const token = (inspected.Config.Env.find((e) => e.startsWith('AGENTCTL_TOKEN=')) ?? '').slice('AGENTCTL_TOKEN='.length);
    expect(inspected.Config.Cmd?.join(' ') ?? '').not.toContain(token);
    expect(inspected.Config.Entrypoint ?? []).not.toContain(token);

    const client = await openReady(stack, session.id, 'typescript');
    const inContainer = await containerHostPids(env.docker, container!.Id);
    expect(inContainer.length).toBeGreaterThan(1);
    expectNowhere(token, stack.home);
    expectNowhere(TEST_ACCESS_TOKEN, stack.home);
    client.ws.close(1000);
    await client.closed;
  });
});
