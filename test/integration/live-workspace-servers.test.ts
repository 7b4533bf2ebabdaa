import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyDemoWorkspace, taskPath } from '../support/stack.js';
import { CLIENT_CAPABILITIES, LeaseClient, startLeaseBackend, startSession, type LeaseBackend } from './lease-support.js';

/**
 * Servers hear about the disk: a function renamed on disk in a file nobody opened breaks the open
 * file that uses it, and each real server says so within seconds. The browser never sends
 * `workspace/didChangeWatchedFiles`: the broker hands the server's registered watchers to agentctl,
 * whose workspace watcher sends the notification itself. Driven as the web client drives a lease,
 * with the capability the web client advertises.
 */
let stack: LeaseBackend;
let sessionId: string;
let taskId: string;
let workspace: string;

const CAPABILITIES = {
  ...CLIENT_CAPABILITIES,
  workspace: { ...CLIENT_CAPABILITIES.workspace, didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true } },
};

beforeAll(async () => {
  stack = await startLeaseBackend();
  workspace = copyDemoWorkspace();
  const env = { PATH: taskPath(), HOME: join(workspace, '.home'), GOFLAGS: '-mod=mod', GOPROXY: 'off' };
  const task = await stack.api('POST', '/api/tasks', { title: 'live', executor: 'local_pc', repositories: [{ path: workspace }], env });
  taskId = task.json.id;
  sessionId = await startSession(stack, taskId);
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

type Frame = Record<string, any>;

/** Opens `file` from disk in a fresh lease and waits for its first diagnostics. */
async function openEditor(language: string, languageId: string, file: string): Promise<{ client: LeaseClient; uri: string }> {
  const client = new LeaseClient(stack.url, sessionId, language);
  const { ready } = await client.initialize(CAPABILITIES);
  const uri = `${ready.workspaceUri}/${file}`;
  client.notify('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text: readFileSync(join(workspace, file), 'utf8') } });
  await client.waitFor((f) => f.method === 'textDocument/publishDiagnostics' && f.params.uri === uri && f.params.diagnostics.length > 0);
  return { client, uri };
}

/** The server registered file watchers with the lease (the broker keeps and hands them on). */
async function watchersRegistered(client: LeaseClient): Promise<Frame> {
  return client.waitFor((f) => f.method === 'client/registerCapability' && JSON.stringify(f.params).includes('workspace/didChangeWatchedFiles'));
}

function messagesOf(frame: Frame): string {
  return (frame.params.diagnostics as Array<{ message: string }>).map((d) => d.message).join('\n');
}

/** The next diagnostics for `uri` after frame index `from` whose messages match. */
function nextDiagnostics(client: LeaseClient, uri: string, from: number, match: RegExp): Promise<Frame> {
  return client.waitFor(
    (f) => client.frames.indexOf(f) >= from && f.method === 'textDocument/publishDiagnostics' && f.params.uri === uri && match.test(messagesOf(f)),
  );
}

function rewrite(file: string, from: string, to: string): void {
  const path = join(workspace, file);
  const text = readFileSync(path, 'utf8');
  expect(text).toContain(from);
  writeFileSync(path, text.split(from).join(to));
}

describe('live workspace: servers hear of disk changes in files nobody opened', () => {
  it('gopls: util/util.go renames Double to Twice on disk and main.go reports undefined: util.Double', async () => {
    const { client, uri } = await openEditor('go', 'go', 'main.go');
    await watchersRegistered(client);
    expect(messagesOf(client.frames.filter((f) => f.params?.uri === uri).at(-1) as Frame)).not.toMatch(/undefined: util\.Double/);
    const from = client.frames.length;
    rewrite('util/util.go', 'func Double', 'func Twice');
    const broken = await nextDiagnostics(client, uri, from, /undefined: util\.Double|Double not declared/);
    expect(messagesOf(broken)).toMatch(/util\.Double|Double/);
    await client.leave();
  }, 60_000);

  it('pyright: app/util.py renames add_numbers on disk and app/main.py reports the broken import', async () => {
    const { client, uri } = await openEditor('python', 'python', 'app/main.py');
    await watchersRegistered(client);
    const from = client.frames.length;
    rewrite('app/util.py', 'def add_numbers', 'def sum_numbers');
    const broken = await nextDiagnostics(client, uri, from, /add_numbers/);
    expect(messagesOf(broken)).toMatch(/"add_numbers" is unknown import symbol/);
    await client.leave();
  }, 60_000);

  // tsserver watches the disk itself by default: this one passes without Kandev's pipeline, and
  // proves only that the change reaches the open file. The next test proves the pipeline.
  it('typescript-language-server, watching the disk itself: src/greeter.ts renames createGreeter on disk and src/main.ts reports the broken import', async () => {
    const { client, uri } = await openEditor('typescript', 'typescript', 'src/main.ts');
    const from = client.frames.length;
    rewrite('src/greeter.ts', 'export function createGreeter', 'export function makeGreeter');
    const broken = await nextDiagnostics(client, uri, from, /createGreeter/);
    expect(messagesOf(broken)).toMatch(/has no exported member( named)? 'createGreeter'/);
    await client.leave();
  }, 60_000);

  it("typescript-language-server relying on the client's watcher (tsserver.useClientFileWatcher, as VS Code can): it registers watchers and hears a rename on disk only through agentctl", async () => {
    writeFileSync(join(workspace, 'src/live-b.ts'), 'export const liveAnswer = 42;\n');
    writeFileSync(
      join(workspace, 'src/live-a.ts'),
      "import { liveAnswer } from './live-b';\nexport const doubled: number = liveAnswer * 2;\nexport const wrong: string = 1;\n",
    );
    // A session of its own: in the shared one this request would claim the TypeScript lease the
    // test above left detached, whose server already runs with its own watcher.
    const client = new LeaseClient(stack.url, await startSession(stack, taskId), 'typescript');
    const ready = await client.waitFor((f) => f.status === 'ready');
    expect(ready.resumed).toBe(false);
    // tsserver started with --canUseWatchEvents watches nothing itself: every file change it learns
    // of comes from workspace/didChangeWatchedFiles, which only agentctl sends.
    await client.request('initialize', {
      processId: null,
      rootUri: ready.workspaceUri,
      workspaceFolders: [{ uri: ready.workspaceUri, name: 'w' }],
      capabilities: CAPABILITIES,
      initializationOptions: { tsserver: { useClientFileWatcher: true } },
    });
    client.notify('initialized', {});
    const uri = `${ready.workspaceUri}/src/live-a.ts`;
    client.notify('textDocument/didOpen', {
      textDocument: { uri, languageId: 'typescript', version: 1, text: readFileSync(join(workspace, 'src/live-a.ts'), 'utf8') },
    });
    await client.waitFor((f) => f.method === 'textDocument/publishDiagnostics' && f.params.uri === uri && f.params.diagnostics.length > 0);
    await watchersRegistered(client);
    const from = client.frames.length;
    rewrite('src/live-b.ts', 'liveAnswer', 'liveQuestion');
    const broken = await nextDiagnostics(client, uri, from, /liveAnswer/);
    expect(messagesOf(broken)).toMatch(/has no exported member( named)? 'liveAnswer'/);
    await client.leave();
  }, 60_000);
});
