import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '@kandev/protocol';
import { putSettings } from '../support/page.js';
import { startStack, type RunningStack } from '../support/stack.js';
import { diagnosticsOf, hostileWorkspace, openFile, setTrust } from './trust-support.js';

/**
 * Workspace trust, GraphQL (docs/workspace-trust.md): the real graphql-language-service (installed
 * by agentctl into the task HOME, auto-install on) loads the repository's GraphQL config, and a
 * JavaScript config is evaluated: repository code. The hostile `graphql.config.js` records that it
 * ran. Untrusted, the broker refuses `initialize` because agentctl found the config; trusted, the
 * server runs it and checks the operation against the schema it names.
 */
const schema = 'type Book {\n  title: String!\n}\n\ntype Query {\n  books: [Book!]!\n}\n';
const operation = 'query Shelf {\n  books {\n    title\n    isbn\n  }\n}\n';
const ws = hostileWorkspace('graphql', {
  'schema.graphql': schema,
  'shelf.graphql': operation,
  'graphql.config.js':
    "const { appendFileSync } = require('node:fs');\nappendFileSync('@MARKER@', 'graphql.config ran\\n');\nmodule.exports = { schema: 'schema.graphql', documents: '*.graphql' };\n",
});
const source = { path: 'shelf.graphql', languageId: 'graphql', text: operation };

let stack: RunningStack;
let task: Task;
let sessionId: string;
let home: string;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'kandev-trust-graphql-home-'));
  stack = await startStack({ KANDEV_LOG_STDERR: '0' });
  await putSettings(stack, { lsp_auto_install_languages: ['graphql'] });
  // npm's download cache is shared to spare the registry; the server lands in the task HOME.
  const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  task = await stack.createTask({ title: 'hostile graphql', workspace: ws.dir, env: { HOME: home, npm_config_cache: npmCache } });
  sessionId = (await stack.startSession(task.id)).id;
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('workspace trust: GraphQL', () => {
  it('untrusted: agentctl finds the config, initialize is refused with the reason, and the config never runs', async () => {
    const { client, init } = await openFile(stack, sessionId, 'graphql', source);
    expect(init.error?.message).toMatch(/loads the repository's GraphQL config/);
    expect(ws.runs()).toEqual([]);
    await client.leave();
  }, 400_000);

  it('trusted: the real server runs the config and checks the operation (the marker proves this test can fail)', async () => {
    await setTrust(stack, task.id, true);
    const { client, uri, init } = await openFile(stack, sessionId, 'graphql', source);
    expect(init.result.capabilities.hoverProvider).toBeTruthy();
    const diagnostics = await diagnosticsOf(client, uri);
    expect(JSON.stringify(diagnostics.params.diagnostics)).toContain('Cannot query field \\"isbn\\" on type \\"Book\\"');
    expect(ws.runs()).toContain('graphql.config ran');
    await client.leave();
  }, 200_000);
});
