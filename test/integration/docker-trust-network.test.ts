/**
 * Untrusted language servers are off the network on Local Docker too (docs/workspace-trust.md): in
 * a task container under Kandev's seccomp profile (`KANDEV_DOCKER_SECCOMP=sandbox`, the default),
 * agentctl runs them through bubblewrap in a user and network namespace of their own.
 *
 * The witness is an HTTP listener on this machine's 127.0.0.1, which the container shares (host
 * networking), named by the repository's files: a YAML `$schema` modeline and a JSON `$schema`.
 * Untrusted, the real yaml-language-server and VS Code JSON server, installed from npm by agentctl
 * inside the container, validate both files and never contact it; trusted, the same servers fetch
 * from it (the witness works). Each check comes after the server's diagnostics for the file, i.e.
 * after it had its chance to fetch.
 *
 * Where the sandbox cannot be had, the browser's ready frame says `network: "unavailable"`: an
 * image without bubblewrap, and a container under Docker's own seccomp profile
 * (`KANDEV_DOCKER_SECCOMP=docker`), which refuses the namespaces.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTAINER_SYSTEM_PATH,
  containerCaEnv,
  dockerAvailable,
  dockerBackendEnv,
  removeOwnedContainers,
  imageWithoutBwrap,
  startDockerEnv,
  stopDockerEnv,
  type DockerEnv,
} from './docker-support.js';
import { startLeaseBackend, startSession, type LeaseBackend, type LeaseClient } from './lease-support.js';
import { openFile } from './trust-support.js';

type Frame = Record<string, any>;

const INSTALL_TIMEOUT = 300_000;
const NO_BWRAP_IMAGE = `kandev-test-nobwrap-${process.pid}`;
/** One HOME for every task container (a mount), so each server is installed once. */
const CONTAINER_HOME = '/kandev-home';
const CONTAINER_NPM_CACHE = '/kandev-npm-cache';

const requests: string[] = [];
let listener: Server;
let port = 0;
let work: string;

const schema = { type: 'object', properties: { name: { type: 'string' } } };
const yamlText = () => `# yaml-language-server: $schema=http://127.0.0.1:${port}/yaml.schema.json\nname: 1\n`;
const jsonText = () => JSON.stringify({ $schema: `http://127.0.0.1:${port}/json.schema.json`, name: 1 }, null, 2);
/**
 * The VS Code JSON server asks its client for a schema (`vscode/content`, which the broker refuses)
 * unless `handledSchemaProtocols` lets it fetch http(s) itself: that is the fetch that must stay
 * off the network.
 */
const jsonFetchesItself = { handledSchemaProtocols: ['file', 'http', 'https'] };

/**
 * A validation that tried the schema: it failed to load (no network), or it loaded and `name: 1`
 * is not the string it asks for (network). Either way the fetch was tried before these diagnostics.
 */
const VALIDATED = /Unable to load schema|Incorrect type/;

/** The first diagnostics for `uri` whose messages match: the validation that tried the schema. */
function diagnostics(client: LeaseClient, uri: string, match: RegExp): Promise<Frame> {
  return client.waitFor(
    (f) =>
      f.method === 'textDocument/publishDiagnostics' && f.params.uri === uri && f.params.diagnostics.some((d: { message: string }) => match.test(d.message)),
  );
}

async function release(client: LeaseClient): Promise<void> {
  client.control({ control: 'release', reason: 'stop' });
  await client.closed;
}

describe.skipIf(!dockerAvailable)('untrusted language servers are off the network on Local Docker (bubblewrap)', () => {
  let env: DockerEnv;
  let sandboxed: LeaseBackend;
  let dockerProfile: LeaseBackend;
  let workspace: string;
  const homes: string[] = [];

  async function backend(seccomp: 'sandbox' | 'docker'): Promise<LeaseBackend> {
    const home = mkdtempSync(join(tmpdir(), 'kandev-docker-net-home-'));
    homes.push(home);
    const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
    const mounts = [`${join(work, 'home')}:${CONTAINER_HOME}:rw`, `${npmCache}:${CONTAINER_NPM_CACHE}:rw`];
    const stack = await startLeaseBackend({
      ...dockerBackendEnv(env),
      KANDEV_HOME: home,
      KANDEV_DOCKER_MOUNTS: JSON.stringify(mounts),
      KANDEV_DOCKER_SECCOMP: seccomp,
    });
    const saved = await stack.api('PUT', '/api/settings', { lsp_auto_install_languages: ['json', 'yaml'] });
    expect(saved.status).toBe(200);
    return stack;
  }

  async function task(stack: LeaseBackend, extraEnv: Record<string, string> = {}): Promise<{ taskId: string; sessionId: string }> {
    const taskEnv = { PATH: CONTAINER_SYSTEM_PATH, HOME: CONTAINER_HOME, npm_config_cache: CONTAINER_NPM_CACHE, ...containerCaEnv(workspace), ...extraEnv };
    const created = await stack.api('POST', '/api/tasks', { title: 'network', executor: 'local_docker', repositories: [{ path: workspace }], env: taskEnv });
    expect(created.status).toBe(201);
    return { taskId: created.json.id, sessionId: await startSession(stack, created.json.id) };
  }

  /** Whether the task container of `sessionId` has bubblewrap, seen through its init's root on this host. */
  async function containerHasBwrap(sessionId: string): Promise<boolean> {
    const [info] = await env.docker.listContainers({ filters: { label: [`dev.kandev.session=${sessionId}`] } });
    const init = (await env.docker.getContainer(info!.Id).inspect()).State.Pid;
    return existsSync(`/proc/${init}/root/usr/bin/bwrap`);
  }

  beforeAll(async () => {
    env = startDockerEnv();
    listener = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(schema));
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as AddressInfo).port;
    work = mkdtempSync(join(tmpdir(), 'kandev-docker-net-'));
    workspace = join(work, 'workspace');
    mkdirSync(workspace, { recursive: true });
    mkdirSync(join(work, 'home'), { recursive: true });
    writeFileSync(join(workspace, 'app.yaml'), yamlText());
    writeFileSync(join(workspace, 'app.json'), jsonText());
    sandboxed = await backend('sandbox');
  }, INSTALL_TIMEOUT);

  afterAll(async () => {
    for (const stack of [sandboxed, dockerProfile]) await stack?.close();
    if (env) for (const home of homes) await removeOwnedContainers(env.docker, home);
    await env?.docker
      .getImage(NO_BWRAP_IMAGE)
      .remove({ force: true })
      .catch(() => undefined);
    stopDockerEnv(env);
    await new Promise((resolve) => (listener ? listener.close(resolve) : resolve(undefined)));
    // The servers installed by the container's root: removed as root, like the rest of the folder.
    if (work) rmSync(work, { recursive: true, force: true });
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  });

  let trustedTaskId = '';
  let trustedSessionId = '';

  it(
    'untrusted: the ready frame says network off, and the YAML modeline and JSON $schema never reach the loopback listener',
    async () => {
      const { taskId, sessionId } = await task(sandboxed);
      trustedTaskId = taskId;
      trustedSessionId = sessionId;
      const yaml = await openFile(sandboxed, sessionId, 'yaml', { path: 'app.yaml', languageId: 'yaml', text: yamlText() });
      expect(yaml.ready.network).toBe('off');
      const yamlSaid = await diagnostics(yaml.client, yaml.uri, VALIDATED);
      const json = await openFile(sandboxed, sessionId, 'json', { path: 'app.json', languageId: 'json', text: jsonText() }, jsonFetchesItself);
      expect(json.ready.network).toBe('off');
      const jsonSaid = await diagnostics(json.client, json.uri, VALIDATED);
      console.log('[docker-trust-network] untrusted:', JSON.stringify([yamlSaid.params.diagnostics, jsonSaid.params.diagnostics]));
      // Both servers have validated their file, having tried the schema: nothing reached the listener.
      expect(requests).toEqual([]);
      for (const opened of [yaml, json]) await release(opened.client);
    },
    INSTALL_TIMEOUT,
  );

  it(
    'trusted: the same files make the same servers in the container fetch from the listener (the witness works)',
    async () => {
      const patched = await sandboxed.api('PATCH', `/api/tasks/${trustedTaskId}`, { trustWorkspaceTools: true });
      expect(patched.status).toBe(200);
      const yaml = await openFile(sandboxed, trustedSessionId, 'yaml', { path: 'app.yaml', languageId: 'yaml', text: yamlText() });
      expect(yaml.ready.network).toBeUndefined();
      await diagnostics(yaml.client, yaml.uri, VALIDATED);
      expect(requests).toContain('/yaml.schema.json');
      const json = await openFile(sandboxed, trustedSessionId, 'json', { path: 'app.json', languageId: 'json', text: jsonText() }, jsonFetchesItself);
      await diagnostics(json.client, json.uri, VALIDATED);
      expect(requests).toContain('/json.schema.json');
      for (const opened of [yaml, json]) await release(opened.client);
    },
    INSTALL_TIMEOUT,
  );

  it(
    'an image without bubblewrap: the ready frame says network unavailable',
    async () => {
      await imageWithoutBwrap(env, NO_BWRAP_IMAGE);
      const { sessionId } = await task(sandboxed, { KANDEV_DOCKER_IMAGE: NO_BWRAP_IMAGE });
      expect(await containerHasBwrap(sessionId)).toBe(false);
      const yaml = await openFile(sandboxed, sessionId, 'yaml', { path: 'app.yaml', languageId: 'yaml', text: yamlText() });
      expect(yaml.ready.network).toBe('unavailable');
      await release(yaml.client);
    },
    INSTALL_TIMEOUT,
  );

  it(
    "Docker's own seccomp profile (KANDEV_DOCKER_SECCOMP=docker): bubblewrap is there but refused, and the ready frame says network unavailable",
    async () => {
      dockerProfile = await backend('docker');
      const { sessionId } = await task(dockerProfile);
      expect(await containerHasBwrap(sessionId)).toBe(true);
      const yaml = await openFile(dockerProfile, sessionId, 'yaml', { path: 'app.yaml', languageId: 'yaml', text: yamlText() });
      expect(yaml.ready.network).toBe('unavailable');
      await release(yaml.client);
    },
    INSTALL_TIMEOUT,
  );
});
