import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTAINER_SYSTEM_PATH,
  containerCreations,
  containerHostPids,
  dockerAvailable,
  dockerBackendEnv,
  type DockerEnv,
  ownedContainers,
  removeOwnedContainers,
  startDockerEnv,
  stopDockerEnv,
} from '../integration/docker-support.js';
import { authHeaders } from '../support/access.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { ensureBuilt, repoRoot } from '../support/build.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { markers, openFile, openSession, waitForLspState } from '../support/page.js';
import { copyDemoWorkspace, startStack, type RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)') && dockerAvailable;

/**
 * Two Local Docker tasks, both rooted at /workspace inside their own containers, open side by side
 * in one browser: each editor keeps its own session's content, and each container's real
 * typescript-language-server analyses only its own files (S32 with Docker). With one lease slot,
 * a refused LSP request starts nothing on a task host: no container, no stream, no process (S27).
 */
describe.runIf(run)('two Local Docker tasks rooted at /workspace in the browser', () => {
  let env: DockerEnv;
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  const sessions: Record<'a' | 'b', string> = { a: '', b: '' };

  beforeAll(async () => {
    env = startDockerEnv();
    ensureBuilt('web-test');
    stack = await startStack({
      ...dockerBackendEnv(env),
      KANDEV_LSP_MAX_CONNECTIONS: '2',
      // The repository's npm language servers, read-only, as the containers' toolchain.
      KANDEV_DOCKER_MOUNTS: JSON.stringify([`${join(repoRoot, 'node_modules')}:/opt/tools/node_modules:ro`]),
    });
    for (const name of ['a', 'b'] as const) {
      const workspace = copyDemoWorkspace();
      // The same path in both workspaces, with a type error of its own in each.
      writeFileSync(join(workspace, 'src/main.ts'), `export const owner = '${name}';\nconst onlyIn${name.toUpperCase()}: number = '${name}';\n`);
      const task = await stack.api<{ id: string }>('/api/tasks', {
        body: {
          title: `docker ${name}`,
          executor: 'local_docker',
          repositories: [{ path: workspace }],
          env: { PATH: `/opt/tools/node_modules/.bin:${CONTAINER_SYSTEM_PATH}` },
        },
      });
      sessions[name] = (await stack.startSession(task.id)).id;
    }
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    const home = stack?.home;
    await stack?.stop();
    if (env && home) await removeOwnedContainers(env.docker, home);
    stopDockerEnv(env);
  });

  async function openMain(page: Page, sessionId: string): Promise<void> {
    await openSession(page, stack.url, sessionId);
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready', 180_000);
  }

  it("S32 S06 each editor keeps its own /workspace file and its container's server reports only that file's error", async () => {
    const context = await newContext(browser.browser);
    const pageA = await context.newPage();
    const pageB = await context.newPage();
    await openMain(pageA, sessions.a);
    await openMain(pageB, sessions.b);
    const content = (page: Page) => page.evaluate(() => (window as any).__kandev.monaco.editor.getEditors()[0].getModel().getValue() as string);
    expect(await content(pageA)).toContain("owner = 'a'");
    expect(await content(pageB)).toContain("owner = 'b'");
    const messages = async (page: Page, sessionId: string) => (await markers(page, sessionId, 'src/main.ts')).map((m) => m.message).join('\n');
    await expect.poll(() => messages(pageA, sessions.a), { timeout: 90_000 }).toMatch(/Type 'string' is not assignable to type 'number'/);
    await expect.poll(() => messages(pageB, sessions.b), { timeout: 90_000 }).toMatch(/Type 'string' is not assignable to type 'number'/);
    // Each marker sits on its own session's declaration: line 2 of its own file, never the other's.
    const markerLines = (page: Page, sessionId: string) =>
      page.evaluate(({ sessionId }) => (window as any).__kandev.getModelMarkers(sessionId, 'src/main.ts').map((m: any) => m.startLineNumber), { sessionId });
    expect(new Set(await markerLines(pageA, sessions.a))).toEqual(new Set([2]));
    expect(new Set(await markerLines(pageB, sessions.b))).toEqual(new Set([2]));
    await context.close();
  });

  it('S27 a request refused at capacity (4005) starts nothing on the task host: no container, no stream, no server process', async () => {
    // Both slots are held by the two editors' leases (detached now, so eviction applies): hold
    // them attached with two sockets first, then a third request must be refused.
    const open = (sessionId: string) =>
      new WebSocket(`${stack.url.replace('http', 'ws')}/lsp/${sessionId}?language=python`, { headers: { Origin: stack.url, ...authHeaders() } });
    const ready = (ws: WebSocket) =>
      new Promise<void>((resolve, reject) => {
        ws.on('message', (d) => {
          if (JSON.parse(d.toString()).status === 'ready') resolve();
        });
        ws.once('close', (code) => reject(new Error(`closed ${code}`)));
      });
    // The closed pages' leases detach once the backend sees their sockets end.
    const detached = async () => {
      const text = await (await fetch(`${stack.url}/metrics`, { headers: authHeaders() })).text();
      return Number(/^kandev_lsp_leases_detached (\d+)/m.exec(text)?.[1] ?? 0);
    };
    await expect.poll(detached, { timeout: 30_000 }).toBe(2);
    const first = open(sessions.a);
    const second = open(sessions.b);
    await Promise.all([ready(first), ready(second)]);
    // A third Docker session that never had a language server: the refusal is the first LSP request
    // its task host would see, so anything the backend started for it would show there.
    const task = await stack.api<{ id: string }>('/api/tasks', {
      body: {
        title: 'docker c',
        executor: 'local_docker',
        repositories: [{ path: copyDemoWorkspace() }],
        env: { PATH: `/opt/tools/node_modules/.bin:${CONTAINER_SYSTEM_PATH}` },
      },
    });
    const c = (await stack.startSession(task.id)).id;
    const [info] = await env.docker.listContainers({ filters: { label: [`dev.kandev.session=${c}`] } });
    const processesBefore = await containerHostPids(env.docker, info!.Id);
    const before = (await ownedContainers(env.docker, stack.home)).length;
    const since = Date.now() / 1000;
    const refused = open(c);
    const code = await new Promise<number>((resolve) => refused.once('close', (c) => resolve(c)));
    expect(code).toBe(4005);
    expect((await ownedContainers(env.docker, stack.home)).length).toBe(before);
    expect(await containerCreations(env.docker, [`dev.kandev.owner=${stack.home}`], since, Date.now() / 1000 + 1)).toEqual([]);
    expect(await containerHostPids(env.docker, info!.Id)).toEqual(processesBefore);

    // Free a slot and open c for real: its agentctl must have seen exactly this one stream. A stream
    // opened for the refused request (even one closed at once) would make it two.
    const released = new Promise<void>((resolve) =>
      first.on('message', (d) => {
        if (JSON.parse(d.toString()).status === 'released') resolve();
      }),
    );
    first.send(JSON.stringify({ control: 'release', reason: 'stop' }));
    await released;
    const admitted = open(c);
    await ready(admitted);
    // agentctl's log reaches the file asynchronously (its logger, then the backend's pipe): polled.
    const streamOpens = (): number =>
      readFileSync(join(stack.home, 'logs', `agentctl-${c}.log`), 'utf8')
        .split('\n')
        .filter((line) => line.includes('"event":"stream_open"')).length;
    await expect.poll(streamOpens).toBe(1);
    admitted.close();
    second.close();
  });
});
