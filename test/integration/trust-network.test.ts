import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prerequisite } from '../support/env.js';
import { CLIENT_CAPABILITIES, LeaseClient, startLeaseBackend, startSession, type LeaseBackend } from './lease-support.js';

/**
 * Untrusted language servers are off the network (docs/workspace-trust.md): agentctl runs them in
 * a network namespace of their own (bubblewrap), where even this host's loopback is another one.
 * The witness is an HTTP listener on 127.0.0.1 that the repository's files point at and that must
 * never be contacted while the workspace is untrusted: a YAML `$schema` modeline and a JSON
 * `$schema`. Trusted, the same files make the same servers contact it: that proves the test can fail.
 * (bash-language-server's explainshell lookup is witnessed in the browser, where the editor's
 * client pulls the user's shell settings: test/e2e/trust-network-shell.test.ts.)
 * Each wait ends on the server's answer that comes after its fetch was tried (diagnostics of a
 * validation that resolved the schema), never on a clock.
 */
const has = (command: string, args: string[]) => {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const ready = prerequisite(has('npm', ['--version']), 'npm') && prerequisite(has('bwrap', ['--version']), 'bubblewrap (apt-get install bubblewrap)');
const INSTALL_TIMEOUT = 300_000;

const requests: string[] = [];
let listener: Server;
let port = 0;
let stack: LeaseBackend;
let work: string;
let workspace: string;
let sessionId: string;
let taskId: string;

const schema = { type: 'object', properties: { name: { type: 'string' } } };

beforeAll(async () => {
  if (!ready) return;
  listener = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url?.endsWith('.schema.json')) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(schema));
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"matches":[]}');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;
  work = mkdtempSync(join(tmpdir(), 'kandev-trust-net-'));
  workspace = join(work, 'workspace');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'app.yaml'), `# yaml-language-server: $schema=http://127.0.0.1:${port}/yaml.schema.json\nname: 1\n`);
  writeFileSync(join(workspace, 'app.json'), JSON.stringify({ $schema: `http://127.0.0.1:${port}/json.schema.json`, name: 1 }, null, 2));
  stack = await startLeaseBackend();
  const saved = await stack.api('PUT', '/api/settings', {
    lsp_auto_install_languages: ['json', 'yaml'],
  });
  expect(saved.status).toBe(200);
  const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  const env = { HOME: join(work, 'home'), PATH: process.env.PATH ?? '/usr/bin:/bin', npm_config_cache: npmCache };
  const task = await stack.api('POST', '/api/tasks', { title: 'network', executor: 'local_pc', repositories: [{ path: workspace }], env });
  taskId = task.json.id;
  sessionId = await startSession(stack, taskId);
}, INSTALL_TIMEOUT);

afterAll(async () => {
  await stack?.close();
  await new Promise((resolve) => (listener ? listener.close(resolve) : resolve(undefined)));
  if (work) rmSync(work, { recursive: true, force: true });
});

interface Opened {
  client: LeaseClient;
  uri: string;
}

async function open(language: string, file: string, languageId: string, text: string, initializationOptions?: unknown): Promise<Opened> {
  const client = new LeaseClient(stack.url, sessionId, language);
  const frame = await client.waitFor((f) => f.status === 'ready');
  await client.request('initialize', {
    processId: null,
    rootUri: frame.workspaceUri,
    workspaceFolders: [{ uri: frame.workspaceUri, name: 'w' }],
    capabilities: CLIENT_CAPABILITIES,
    ...(initializationOptions ? { initializationOptions } : {}),
  });
  client.notify('initialized', {});
  const uri = `${frame.workspaceUri}/${file}`;
  client.notify('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
  return { client, uri };
}

/** The first diagnostics for `uri` whose messages match: the validation that tried the schema. */
function diagnostics(opened: Opened, match: RegExp): Promise<Record<string, any>> {
  return opened.client.waitFor(
    (f) =>
      f.method === 'textDocument/publishDiagnostics' &&
      f.params.uri === opened.uri &&
      f.params.diagnostics.some((d: { message: string }) => match.test(d.message)),
  );
}

/** A wait that names itself when it does not end (a hung step says which one). */
function bounded<T>(promise: Promise<T>, what: string, ms = 90_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing in ${ms} ms (requests: ${requests.join(' ')})`)), ms)),
  );
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function stop(opened: Opened): Promise<void> {
  opened.client.control({ control: 'release', reason: 'stop' });
  await opened.client.closed;
}

const yamlText = () => `# yaml-language-server: $schema=http://127.0.0.1:${port}/yaml.schema.json\nname: 1\n`;
/**
 * The VS Code JSON server asks its client for a schema (`vscode/content`, which the broker refuses)
 * unless `handledSchemaProtocols` lets it fetch http(s) itself: that is the fetch that must stay
 * off the network.
 */
const jsonFetchesItself = { handledSchemaProtocols: ['file', 'http', 'https'] };
const jsonText = () => JSON.stringify({ $schema: `http://127.0.0.1:${port}/json.schema.json`, name: 1 }, null, 2);

describe.runIf(ready)('untrusted language servers are off the network (bubblewrap)', () => {
  it(
    'untrusted: the YAML modeline schema and the JSON $schema never reach the loopback listener',
    async () => {
      const yaml = await open('yaml', 'app.yaml', 'yaml', yamlText());
      const yamlSaid = await diagnostics(yaml, /schema/i);
      const json = await open('json', 'app.json', 'json', jsonText(), jsonFetchesItself);
      const jsonSaid = await diagnostics(json, /schema/i);
      console.log('[trust-network] untrusted:', JSON.stringify([yamlSaid.params.diagnostics, jsonSaid.params.diagnostics]));
      expect(requests).toEqual([]);
      for (const opened of [yaml, json]) await stop(opened);
    },
    INSTALL_TIMEOUT,
  );

  it(
    'trusted: the same files make the same servers fetch from the listener (the witness works)',
    async () => {
      const patched = await stack.api('PATCH', `/api/tasks/${taskId}`, { trustWorkspaceTools: true });
      expect(patched.status).toBe(200);
      const yaml = await open('yaml', 'app.yaml', 'yaml', yamlText());
      await bounded(diagnostics(yaml, /Incorrect type/), 'trusted yaml validated against the served schema');
      expect(requests).toContain('/yaml.schema.json');
      const json = await open('json', 'app.json', 'json', jsonText(), jsonFetchesItself);
      await bounded(diagnostics(json, /Incorrect type/), 'trusted json validated against the served schema');
      expect(requests).toContain('/json.schema.json');
      for (const opened of [yaml, json]) await stop(opened);
    },
    INSTALL_TIMEOUT,
  );
});
