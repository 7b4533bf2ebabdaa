import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFakeServer, readLog, writeScript } from '../support/fakeServer.js';
import { startStack, taskPath, type RunningStack } from '../support/stack.js';
import { LeaseClient } from './lease-support.js';
import { serverEnvironments, setTrust } from './trust-support.js';
import { writeFiles } from '../support/files.js';

/**
 * Workspace trust for the servers this machine cannot fetch (docs/architecture.md section 8): the scriptable fake
 * server installed as `rust-analyzer` and `kotlin-lsp`; its JSONL log is the witness of what the
 * server received, /proc of the environment it got. The real-server behaviour behind these
 * settings is documented in docs/workspace-trust.md.
 */
let stack: RunningStack;
const root = mkdtempSync(join(tmpdir(), 'kandev-trust-fake-'));

beforeAll(async () => {
  stack = await startStack({ KANDEV_LOG_STDERR: '0' });
});

afterAll(async () => {
  await stack?.stop();
});

async function fakeTask(binary: 'rust-analyzer' | 'kotlin-lsp', files: Record<string, string>) {
  const dir = join(root, binary);
  const workspace = join(dir, 'workspace');
  writeFiles(workspace, files);
  const bin = join(dir, 'bin');
  installFakeServer(bin, binary);
  const log = join(dir, 'server.jsonl');
  const tag = `trust-${binary}-${process.pid}`;
  const env = { PATH: taskPath(bin), FAKE_LSP_SCRIPT: writeScript(dir, { capabilities: { hoverProvider: true } }), FAKE_LSP_LOG: log, KANDEV_TRUST_TEST: tag };
  const task = await stack.createTask({ title: binary, workspace, env });
  const session = await stack.startSession(task.id);
  return { taskId: task.id, sessionId: session.id, log: () => readLog(log), tag };
}

async function initialize(sessionId: string, language: string, initializationOptions: unknown) {
  const client = new LeaseClient(stack.url, sessionId, language);
  const ready = await client.waitFor((f) => f.status === 'ready');
  const reply = await client.request('initialize', { processId: null, rootUri: ready.workspaceUri, capabilities: {}, initializationOptions });
  return { client, reply };
}

describe('workspace trust: rust-analyzer and kotlin-lsp (fake server under their names)', () => {
  it('untrusted rust-analyzer: build scripts, proc macros and check are off whatever the browser sent; cargo wrappers and toolchain installs are disabled in its environment', async () => {
    const rust = await fakeTask('rust-analyzer', { 'Cargo.toml': '[package]\nname = "x"\nversion = "0.1.0"\n', 'src/main.rs': 'fn main() {}\n' });
    const asked = { cargo: { buildScripts: { enable: true } }, procMacro: { enable: true }, checkOnSave: true };
    const { client, reply } = await initialize(rust.sessionId, 'rust', asked);
    expect(reply.result.capabilities.hoverProvider).toBe(true);
    const received = rust.log().find((m) => m.message.method === 'initialize')?.message.params.initializationOptions;
    expect(received).toEqual({
      cargo: { buildScripts: { enable: false, overrideCommand: null } },
      procMacro: { enable: false },
      checkOnSave: false,
      check: { overrideCommand: null },
    });
    const [server] = serverEnvironments('fake-lsp-server.mjs', 'KANDEV_TRUST_TEST', rust.tag);
    expect(server?.env).toMatchObject({ RUSTC_WRAPPER: '', RUSTC_WORKSPACE_WRAPPER: '', RUSTUP_AUTO_INSTALL: '0' });
    await client.leave();

    await setTrust(stack, rust.taskId, true);
    const trusted = await initialize(rust.sessionId, 'rust', asked);
    const initializes = rust.log().filter((m) => m.message.method === 'initialize');
    expect(initializes).toHaveLength(2);
    expect(initializes[1]?.message.params.initializationOptions).toEqual(asked);
    const trustedServer = serverEnvironments('fake-lsp-server.mjs', 'KANDEV_TRUST_TEST', rust.tag).find((s) => s.pid === initializes[1]?.pid);
    // The task env reaches a trusted server as it is (this machine's own env may set RUSTUP_AUTO_INSTALL).
    expect(trustedServer).toBeDefined();
    expect(trustedServer?.env.RUSTC_WRAPPER).toBeUndefined();
    await trusted.client.leave();
  });

  it('untrusted kotlin-lsp: initialize is refused with the reason and never reaches the server (no Gradle import); trusted it is', async () => {
    const kotlin = await fakeTask('kotlin-lsp', { 'settings.gradle.kts': 'rootProject.name = "x"\n', 'src/Main.kt': 'fun main() {}\n' });
    const { client, reply } = await initialize(kotlin.sessionId, 'kotlin', {});
    expect(reply.error.message).toContain("trust this workspace's tools");
    expect(kotlin.log().map((m) => m.message.method)).not.toContain('initialize');
    await client.leave();

    await setTrust(stack, kotlin.taskId, true);
    const trusted = await initialize(kotlin.sessionId, 'kotlin', {});
    expect(trusted.reply.result.capabilities.hoverProvider).toBe(true);
    expect(kotlin.log().map((m) => m.message.method)).toContain('initialize');
    await trusted.client.leave();
  });
});
