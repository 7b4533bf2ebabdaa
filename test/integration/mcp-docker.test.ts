import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/build.js';
import { copyDemoWorkspace } from '../support/stack.js';
import { CONTAINER_SYSTEM_PATH, dockerAvailable, dockerBackendEnv, type DockerEnv, startDockerEnv, stopDockerEnv } from './docker-support.js';
import { startLeaseBackend, startSession, type LeaseBackend } from './lease-support.js';
import { agentToken, call, connect } from './mcp-support.js';

/**
 * The MCP endpoint on a Local Docker task host: the container's environment names the endpoint and
 * its token, and pyright running in the container answers the agent, following the disk.
 */
describe.skipIf(!dockerAvailable)('mcp on a Local Docker task host', () => {
  let env: DockerEnv;
  let stack: LeaseBackend;
  let sessionId: string;
  let workspace: string;
  let client: Client;

  beforeAll(async () => {
    env = startDockerEnv();
    stack = await startLeaseBackend({
      ...dockerBackendEnv(env),
      KANDEV_DOCKER_MOUNTS: JSON.stringify([`${join(repoRoot, 'node_modules')}:/opt/tools/node_modules:ro`]),
    });
    await stack.api('PUT', '/api/settings', { lsp_auto_start_languages: ['python'] });
    workspace = copyDemoWorkspace();
    const task = await stack.api('POST', '/api/tasks', {
      title: 'docker mcp',
      executor: 'local_docker',
      repositories: [{ path: workspace }],
      env: { PATH: `/opt/tools/node_modules/.bin:${CONTAINER_SYSTEM_PATH}` },
    });
    sessionId = await startSession(stack, task.json.id);
    const { url, token } = await agentToken(stack, sessionId);
    client = await connect(url, token);
  }, 300_000);

  afterAll(async () => {
    await client?.close();
    await stack?.close();
    stopDockerEnv(env);
  });

  it("the container's environment carries KANDEV_MCP_URL and a live KANDEV_MCP_TOKEN", async () => {
    const containers = await env.docker.listContainers({ filters: { label: [`dev.kandev.session=${sessionId}`] } });
    expect(containers).toHaveLength(1);
    const inspected = await env.docker.getContainer(containers[0]!.Id).inspect();
    const vars = Object.fromEntries(inspected.Config.Env.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
    expect(vars.KANDEV_MCP_URL).toBe(`${stack.url}/mcp`);
    const own = await connect(vars.KANDEV_MCP_URL as string, vars.KANDEV_MCP_TOKEN as string);
    expect((await own.listTools()).tools).toHaveLength(10);
    await own.close();
  }, 60_000);

  it('pyright in the container: diagnostics, definition, and the disk followed', async () => {
    const before = await call(client, 'diagnostics', { paths: ['app/main.py'] });
    expect(before.text).toMatch(/app\/main\.py: fresh, 1 error/);
    const definition = await call(client, 'definition', { path: 'app/main.py', line: 1, column: 22 });
    expect(definition.text).toMatch(/app\/util\.py:1:5/);
    const util = join(workspace, 'app/util.py');
    writeFileSync(util, readFileSync(util, 'utf8').replace('def add_numbers', 'def sum_numbers'));
    const after = await call(client, 'diagnostics', { paths: ['app/main.py'] });
    expect(after.text).toMatch(/app\/main\.py: fresh/);
    expect(after.text).toMatch(/add_numbers/);
  }, 240_000);
});
