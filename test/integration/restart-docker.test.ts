/**
 * A backend restart keeps a Local Docker task host: the backend is SIGKILLed with a leased, warmed
 * typescript-language-server in a task container (the repository's npm servers mounted read-only),
 * started again on the same KANDEV_HOME, and re-adopts the very same container (same id, same server
 * process); the lease hint resumes without a second `initialize` and hover is answered. A stop then
 * still stops: SIGTERM removes the container with every process in it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/build.js';
import { startStack, type RunningStack } from '../support/stack.js';
import {
  CONTAINER_SYSTEM_PATH,
  containerHostPids,
  dockerAvailable,
  dockerBackendEnv,
  type DockerEnv,
  isAlive,
  languageServerPids,
  ownedContainers,
  removeOwnedContainers,
  startDockerEnv,
  stopDockerEnv,
} from './docker-support.js';
import { LeaseClient } from './lease-support.js';

const root = mkdtempSync(join(tmpdir(), 'kandev-restart-docker-'));
const home = join(root, 'home');
const TEXT = 'export function hello(name: string): string {\n  return name;\n}\n';

function hover(client: LeaseClient, uri: string) {
  return client.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 17 } });
}

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
      ...dockerBackendEnv(env),
      KANDEV_LOG_STDERR: '0',
      KANDEV_RESTART_GRACE_MS: '60000',
      // A read-only toolchain for the task container: the repository's npm language servers.
      KANDEV_DOCKER_MOUNTS: JSON.stringify([`${join(repoRoot, 'node_modules')}:/opt/tools/node_modules:ro`]),
    });
    stacks.push(stack);
    return stack;
  };

  it('C05 across a backend restart: a SIGKILLed backend started again re-adopts the same container and its typescript-language-server; the lease resumes without a second initialize and answers hover; SIGTERM then removes it all', async () => {
    const dir = join(root, 'workspace');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022' } }));
    writeFileSync(join(dir, 'a.ts'), TEXT);
    const first = await backend();
    const task = await first.createTask({ executor: 'local_docker', workspace: dir, env: { PATH: `/opt/tools/node_modules/.bin:${CONTAINER_SYSTEM_PATH}` } });
    const session = await first.startSession(task.id);
    const client = new LeaseClient(first.url, session.id, 'typescript');
    const { ready, result } = await client.initialize();
    const uri = `${ready.workspaceUri}/a.ts`;
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text: TEXT } });
    // Answered once the project is loaded; it also orders the lease's write-down before the kill.
    expect(JSON.stringify((await hover(client, uri)).result)).toContain('function hello(name: string): string');
    const [container] = await ownedContainers(env.docker, home);
    const pids = await containerHostPids(env.docker, container?.Id as string);
    const server = languageServerPids(pids, 'typescript-language-server')[0];
    expect(server).toBeDefined();

    const died = new Promise((resolve) => first.process.once('exit', resolve));
    first.process.kill('SIGKILL');
    await died;
    await client.closed;

    const second = await backend();
    expect(await second.api(`/api/sessions/${session.id}`)).toMatchObject({ status: 'running' });
    expect((await ownedContainers(env.docker, home)).map((c) => c.Id)).toEqual([container?.Id]);
    const back = new LeaseClient(second.url, session.id, 'typescript', ready.lease as string);
    const resumed = await back.waitFor((f) => f.status === 'ready');
    // Resumed: the browser must not initialize again; the retained result is the server's one answer.
    expect(resumed).toMatchObject({ lease: ready.lease, resumed: true });
    expect(resumed.initializeResult).toEqual(result.result);
    back.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text: TEXT } });
    back.control({ control: 'attachment-ready' });
    await back.waitFor((f) => f.status === 'synchronized');
    const answer = await hover(back, uri);
    expect(answer.error).toBeUndefined();
    expect(JSON.stringify(answer.result)).toContain('function hello(name: string): string');
    // The very same processes: nothing in the container was started again.
    expect(pids.filter(isAlive)).toEqual(pids);
    expect(await containerHostPids(env.docker, container?.Id as string)).toEqual(expect.arrayContaining(pids));
    expect(languageServerPids(await containerHostPids(env.docker, container?.Id as string), 'typescript-language-server')).toEqual([server]);

    const stopped = new Promise((resolve) => second.process.once('exit', resolve));
    second.process.kill('SIGTERM');
    await stopped;
    expect(await ownedContainers(env.docker, home)).toEqual([]);
    expect(pids.filter(isAlive)).toEqual([]);
  }, 300_000);
});
