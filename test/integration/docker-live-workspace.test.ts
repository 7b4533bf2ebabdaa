/**
 * The live workspace on a Local Docker task host: agentctl's native watcher (the @parcel/watcher
 * addon mounted beside the bundle) runs inside the base image and sees what is written to the
 * bind-mounted workspace from outside, the git state says the image has no git, and pyright
 * inside the container reports the broken import of a function renamed on disk in a file nobody
 * opened.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkspaceEventFrame } from '@kandev/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/build.js';
import { EventsClient } from '../support/eventsClient.js';
import { copyDemoWorkspace } from '../support/stack.js';
import { CONTAINER_SYSTEM_PATH, dockerAvailable, dockerBackendEnv, type DockerEnv, startDockerEnv, stopDockerEnv } from './docker-support.js';
import { CLIENT_CAPABILITIES, LeaseClient, startLeaseBackend, startSession, type LeaseBackend } from './lease-support.js';

describe.skipIf(!dockerAvailable)('the live workspace in a Local Docker task host', () => {
  let env: DockerEnv;
  let stack: LeaseBackend;
  let sessionId: string;
  let workspace: string;

  beforeAll(async () => {
    env = startDockerEnv();
    stack = await startLeaseBackend({
      ...dockerBackendEnv(env),
      // The repository's npm language servers, read-only, as the container's toolchain.
      KANDEV_DOCKER_MOUNTS: JSON.stringify([`${join(repoRoot, 'node_modules')}:/opt/tools/node_modules:ro`]),
    });
    workspace = copyDemoWorkspace();
    const task = await stack.api('POST', '/api/tasks', {
      title: 'docker live',
      executor: 'local_docker',
      repositories: [{ path: workspace }],
      env: { PATH: `/opt/tools/node_modules/.bin:${CONTAINER_SYSTEM_PATH}` },
    });
    sessionId = await startSession(stack, task.json.id);
  }, 300_000);

  afterAll(async () => {
    // Closing the backend stops the session, whose container is removed with it.
    await stack?.close();
    stopDockerEnv(env);
  });

  it('the watcher runs natively in the container: a file written from outside reaches the page; no git in the image says so', async () => {
    const page = new EventsClient(stack.url, sessionId);
    await page.waitFor((f) => f.type === 'git');
    expect(page.frames.slice(0, 2)).toEqual([
      { type: 'watch', mode: 'native' },
      { type: 'git', state: { available: false, reason: 'git_missing' } },
    ]);
    writeFileSync(join(workspace, 'src/added.ts'), 'export const added = 1;\n');
    const files = await page.waitFor<Extract<WorkspaceEventFrame, { type: 'files' }>>((f) => f.type === 'files');
    expect(files.changes).toContainEqual({ kind: 'created', path: 'src/added.ts', directory: false });
    page.close();
  }, 60_000);

  it('pyright in the container: app/util.py renames add_numbers on disk and app/main.py reports the broken import', async () => {
    const client = new LeaseClient(stack.url, sessionId, 'python');
    const capabilities = {
      ...CLIENT_CAPABILITIES,
      workspace: { ...CLIENT_CAPABILITIES.workspace, didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true } },
    };
    const { ready } = await client.initialize(capabilities);
    const uri = `${ready.workspaceUri}/app/main.py`;
    client.notify('textDocument/didOpen', {
      textDocument: { uri, languageId: 'python', version: 1, text: readFileSync(join(workspace, 'app/main.py'), 'utf8') },
    });
    await client.waitFor((f) => f.method === 'textDocument/publishDiagnostics' && f.params.uri === uri && f.params.diagnostics.length > 0);
    await client.waitFor((f) => f.method === 'client/registerCapability' && JSON.stringify(f.params).includes('workspace/didChangeWatchedFiles'));
    const from = client.frames.length;
    const util = join(workspace, 'app/util.py');
    writeFileSync(util, readFileSync(util, 'utf8').replace('def add_numbers', 'def sum_numbers'));
    const messages = (f: Record<string, any>) => (f.params.diagnostics as Array<{ message: string }>).map((d) => d.message).join('\n');
    const broken = await client.waitFor(
      (f) => client.frames.indexOf(f) >= from && f.method === 'textDocument/publishDiagnostics' && f.params.uri === uri && /add_numbers/.test(messages(f)),
    );
    expect(messages(broken)).toMatch(/"add_numbers" is unknown import symbol/);
    await client.leave();
  }, 180_000);
});
