import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '@kandev/protocol';
import { startStack, taskPath, type RunningStack } from '../support/stack.js';
import { diagnosticsOf, hostileWorkspace, hoverText, makeExecutable, openFile, recordingShim, serverEnvironments, setTrust } from './trust-support.js';

/**
 * Workspace trust, pyright (docs/workspace-trust.md). Verified against pyright 1.1.414: pyright
 * executes exactly one program, the interpreter it asks for search paths and the Python version:
 * `python.pythonPath` from the client's settings, else `python3`/`python` looked up on its PATH.
 * A repository's pyrightconfig.json `venvPath`/`venv` is only scanned for site-packages, never run.
 * The repository-controlled route is therefore the PATH: here the task env has the repository's
 * virtualenv activated (`.venv/bin` first), as an agent that ran `source .venv/bin/activate` would.
 */
const ws = hostileWorkspace('py', {
  'pyrightconfig.json': JSON.stringify({ venvPath: '.', venv: '.venv' }),
  '.venv/pyvenv.cfg': 'home = /usr/bin\n',
  '.venv/bin/python3': recordingShim('/usr/bin/python3', 'venv python3'),
  '.venv/bin/python': recordingShim('/usr/bin/python3', 'venv python'),
  '.venv/lib/python3.11/site-packages/hostile_lib.py': 'VALUE: int = 42\n',
  'app.py': '',
});
makeExecutable(ws, '.venv/bin/python3', '.venv/bin/python');
const source = { path: 'app.py', languageId: 'python', text: 'import hostile_lib\n\ncount: int = "three"\nanswer = hostile_lib.VALUE\n' };
const tag = `trust-py-${process.pid}`;

let stack: RunningStack;
let task: Task;
let sessionId: string;

beforeAll(async () => {
  stack = await startStack({ KANDEV_LOG_STDERR: '0' });
  const env = { PATH: [join(ws.dir, '.venv/bin'), taskPath()].join(delimiter), KANDEV_TRUST_TEST: tag };
  task = await stack.createTask({ title: 'hostile python', workspace: ws.dir, env });
  sessionId = (await stack.startSession(task.id)).id;
});

afterAll(async () => {
  await stack?.stop();
});

describe('workspace trust: pyright', () => {
  it('untrusted: pyright type-checks and resolves the venv packages, yet the venv interpreter never runs', async () => {
    const { client, uri } = await openFile(stack, sessionId, 'python', source);
    const diagnostics = await diagnosticsOf(client, uri);
    expect(JSON.stringify(diagnostics.params.diagnostics)).toContain('is not assignable');
    expect(JSON.stringify(diagnostics.params.diagnostics)).not.toContain('hostile_lib');
    expect(await hoverText(client, uri, 3, 22)).toContain('int');
    // The server's PATH lost the workspace entry; the interpreter it was pinned to is the host's.
    const servers = serverEnvironments('pyright-langserver', 'KANDEV_TRUST_TEST', tag);
    expect(servers).toHaveLength(1);
    expect(servers[0]?.env.PATH?.split(delimiter)).not.toContain(join(ws.dir, '.venv/bin'));
    expect(ws.runs()).toEqual([]);
    await client.leave();
  });

  it('trusted: the next server start runs the activated venv interpreter (the marker proves this test can fail)', async () => {
    await setTrust(stack, task.id, true);
    const { client, uri } = await openFile(stack, sessionId, 'python', source);
    await diagnosticsOf(client, uri);
    expect(ws.runs().length).toBeGreaterThan(0);
    expect(ws.runs().every((line) => line.startsWith('venv python'))).toBe(true);
    await client.leave();
  });
});
