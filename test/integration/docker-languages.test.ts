/**
 * The configuration languages on a Local Docker task host: agentctl inside the container installs
 * docker-langserver with the container's npm (the mounted one) into the container's HOME, and the
 * server answers through the backend; clangd, which the base image lacks, is refused with 4007
 * (no install attempt, even with auto-install on for every installable language).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Session, Task } from '@kandev/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspTestClient } from '../../apps/agentctl/src/testing/agentctlProcess.js';
import { TEST_ACCESS_TOKEN } from '../support/access.js';
import { ensureBuilt } from '../support/build.js';
import { startTestBackend, type TestBackend } from './backend-support.js';
import {
  CONTAINER_SYSTEM_PATH,
  containerCaEnv,
  containerHostPids,
  dockerAvailable,
  removeOwnedContainers,
  startDockerEnv,
  stopDockerEnv,
  type DockerEnv,
} from './docker-support.js';

const root = mkdtempSync(join(tmpdir(), 'kandev-docker-langs-'));

describe.skipIf(!dockerAvailable)('configuration languages in a Local Docker task host', () => {
  let env: DockerEnv;
  let stack: TestBackend;

  beforeAll(async () => {
    env = startDockerEnv();
    ensureBuilt('agentctl');
    stack = await startTestBackend({ DOCKER_HOST: env.dockerHost, KANDEV_DOCKER_IMAGE: env.image, KANDEV_DOCKER_NETWORK: 'host' });
  });

  afterAll(async () => {
    const home = stack?.home;
    await stack?.close();
    if (env && home) await removeOwnedContainers(env.docker, home);
    stopDockerEnv(env);
    rmSync(root, { recursive: true, force: true });
  });

  async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await stack.api(method, path, body);
    if (res.status >= 400) throw new Error(`${method} ${path} -> ${res.status}: ${JSON.stringify(res.json)}`);
    return res.json as T;
  }

  async function session(files: Record<string, string>): Promise<Session> {
    const dir = join(root, `ws-${Object.keys(files).join('-')}`);
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const env = { PATH: CONTAINER_SYSTEM_PATH, ...containerCaEnv(dir) };
    const task = await api<Task>('POST', '/api/tasks', { title: 'docker langs', executor: 'local_docker', repositories: [{ path: dir }], env });
    return api<Session>('POST', `/api/tasks/${task.id}/sessions`);
  }

  const openLsp = (sessionId: string, language: string) =>
    new LspTestClient(`${stack.url.replace(/^http/, 'ws')}/lsp/${sessionId}?language=${language}`, TEST_ACCESS_TOKEN);

  it('installs docker-langserver with npm inside the container, into its HOME, and reports the unknown instruction', async () => {
    const text = 'FROM debian:12\nRUNN make\n';
    const s = await session({ Dockerfile: text });
    await api('PUT', '/api/settings', { lsp_auto_install_languages: ['dockerfile'] });
    try {
      const client = openLsp(s.id, 'dockerfile');
      const ready = await client.status('ready');
      // `installing` repeats with npm's output lines; then installed, then ready.
      const statuses = client.frames.filter((f) => typeof f.status === 'string').map((f) => f.status);
      expect(statuses.filter((st, i) => st !== statuses[i - 1])).toEqual(['installing', 'installed', 'ready']);
      await client.request('initialize', {
        processId: null,
        rootUri: ready.workspaceUri,
        workspaceFolders: [{ uri: ready.workspaceUri, name: 'w' }],
        capabilities: {},
      });
      client.notify('initialized', {});
      client.notify('textDocument/didOpen', { textDocument: { uri: 'file:///workspace/Dockerfile', languageId: 'dockerfile', version: 1, text } });
      const published = await client.waitFor((f) => f.method === 'textDocument/publishDiagnostics' && JSON.stringify(f.params).includes('RUNN'));
      expect(JSON.stringify(published.params)).toMatch(/Unknown instruction: RUNN/i);
      const [info] = await env.docker.listContainers({ filters: { label: [`dev.kandev.session=${s.id}`] } });
      const pids = await containerHostPids(env.docker, info!.Id);
      const server = pids.find((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('docker-langserver');
        } catch {
          return false;
        }
      });
      expect(server).toBeDefined();
      // Installed in the container's own file system, under its HOME (/root), by the product.
      expect(existsSync(`/proc/${server}/root/root/.kandev/lsp-servers/dockerfile/node_modules/.bin/docker-langserver`)).toBe(true);
      client.close();
    } finally {
      await api('PUT', '/api/settings', { lsp_auto_install_languages: [] });
    }
  }, 300_000);

  it("refuses C with 4007 (the browser shows clangd's own setup guidance) when the image has no clangd, never trying an install", async () => {
    const s = await session({ 'main.c': 'int main(void) { return 0; }\n' });
    // The settings schema refuses auto-install for cpp, so "everything on" cannot include it.
    expect((await stack.api('PUT', '/api/settings', { lsp_auto_install_languages: ['cpp'] })).status).toBe(400);
    const client = openLsp(s.id, 'cpp');
    const closed = await client.closed;
    expect(closed.code).toBe(4007);
    expect(client.frames.some((f) => f.status === 'installing')).toBe(false);
  });
});
