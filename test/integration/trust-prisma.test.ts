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
 * Workspace trust, Prisma (docs/workspace-trust.md): the real prisma-language-server (installed by
 * agentctl into the task HOME, auto-install on) evaluates the repository's `prisma.config.ts` when
 * it validates a schema: repository code. The hostile config records that it ran. Untrusted, the
 * broker refuses `initialize` because agentctl found the config; trusted, the server runs it.
 */
const schema = 'datasource db {\n  provider = "sqlite"\n}\n\nmodel User {\n  id    Int    @id\n  posts Postt[]\n}\n';
const ws = hostileWorkspace('prisma', {
  'schema.prisma': schema,
  'prisma.config.ts': "import { appendFileSync } from 'node:fs';\nappendFileSync('@MARKER@', 'prisma.config ran\\n');\nexport default {};\n",
});
const source = { path: 'schema.prisma', languageId: 'prisma', text: schema };

let stack: RunningStack;
let task: Task;
let sessionId: string;
let home: string;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'kandev-trust-prisma-home-'));
  stack = await startStack({ KANDEV_LOG_STDERR: '0' });
  await putSettings(stack, { lsp_auto_install_languages: ['prisma'] });
  // npm's download cache is shared to spare the registry; the server lands in the task HOME.
  const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  task = await stack.createTask({ title: 'hostile prisma', workspace: ws.dir, env: { HOME: home, npm_config_cache: npmCache } });
  sessionId = (await stack.startSession(task.id)).id;
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('workspace trust: Prisma', () => {
  it('untrusted: agentctl finds the config, initialize is refused with the reason, and the config never runs', async () => {
    const { client, init } = await openFile(stack, sessionId, 'prisma', source);
    expect(init.error?.message).toMatch(/evaluates the repository's prisma\.config file/);
    expect(ws.runs()).toEqual([]);
    await client.leave();
  }, 400_000);

  it('trusted: the real server validates the schema and runs the config (the marker proves this test can fail)', async () => {
    await setTrust(stack, task.id, true);
    const { client, uri, init } = await openFile(stack, sessionId, 'prisma', source);
    expect(init.result.capabilities.hoverProvider).toBeTruthy();
    const diagnostics = await diagnosticsOf(client, uri);
    expect(JSON.stringify(diagnostics.params.diagnostics)).toContain('Type \\"Postt\\" is neither a built-in type');
    expect(ws.runs()).toContain('prisma.config ran');
    await client.leave();
  }, 200_000);
});
