import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { pathToFileUri } from '@kandev/protocol';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { installFakeServer, writeScript } from '../support/fakeServer.js';
import { writeFiles } from '../support/files.js';
import { taskPath } from '../support/stack.js';
import { startLeaseBackend, startSession, type LeaseBackend } from './lease-support.js';
import { agentToken, call, connect } from './mcp-support.js';

/**
 * An applied rename that cannot write every edit is not a success, and says which: a Kotlin-style
 * class rename (edits in two files plus renaming `Main.kt` to `Other.kt`) where `Other.kt` already
 * exists. The files route refuses the whole batch, so nothing is written. The fake server (as
 * `kotlin-lsp`) answers the rename; the backend, agentctl and the files route are real.
 */
const FILES = {
  'Main.kt': 'class Main {\n  fun run() = println("hi")\n}\n',
  'Use.kt': 'fun use() = Main().run()\n',
  'Other.kt': '// somebody else\n',
};
const range = (line: number, character: number, length: number) => ({ start: { line, character }, end: { line, character: character + length } });

let stack: LeaseBackend;
let dir: string;
let workspace: string;
let client: Client;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kandev-mcp-rename-'));
  workspace = writeFiles(join(dir, 'workspace'), FILES);
  const uri = (path: string) => pathToFileUri(join(workspace, path));
  const script: FakeScript = {
    capabilities: { renameProvider: true },
    rules: {
      'textDocument/rename': [
        {
          respond: {
            documentChanges: [
              { textDocument: { uri: uri('Main.kt'), version: null }, edits: [{ range: range(0, 6, 4), newText: 'Other' }] },
              { textDocument: { uri: uri('Use.kt'), version: null }, edits: [{ range: range(0, 12, 4), newText: 'Other' }] },
              { kind: 'rename', oldUri: uri('Main.kt'), newUri: uri('Other.kt') },
            ],
          },
        },
      ],
    },
  };
  const bin = join(dir, 'bin');
  installFakeServer(bin, 'kotlin-lsp');
  stack = await startLeaseBackend();
  await stack.api('PUT', '/api/settings', { lsp_auto_start_languages: ['kotlin'] });
  const task = await stack.api('POST', '/api/tasks', {
    title: 'refused rename',
    executor: 'local_pc',
    repositories: [{ path: workspace }],
    env: { PATH: taskPath(bin), FAKE_LSP_SCRIPT: writeScript(dir, script), FAKE_LSP_LOG: join(dir, 'server.jsonl') },
  });
  const sessionId = await startSession(stack, task.json.id);
  const { url, token } = await agentToken(stack, sessionId);
  client = await connect(url, token);
}, 120_000);

afterAll(async () => {
  await client?.close();
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('mcp: a rename that cannot be written whole', () => {
  it('is an error naming every edit not written and why, and leaves every file as it was', async () => {
    const result = await call(client, 'rename', { path: 'Main.kt', line: 1, column: 7, new_name: 'Other', apply: true });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(
      /^not applied: nothing was written \(all or nothing\)\. Not written:\n {2}Main\.kt \(1 edit\)\n {2}Use\.kt \(1 edit\)\n {2}rename Main\.kt -> Other\.kt\nBecause:\n {2}Other\.kt: already exists\n/,
    );
    expect(result.structuredContent).toMatchObject({
      applied: false,
      not_written: ['Main.kt (1 edit)', 'Use.kt (1 edit)', 'rename Main.kt -> Other.kt'],
      conflicts: [{ path: 'Other.kt', reason: 'already exists' }],
    });
    // The diff of what was refused is still shown.
    expect(result.text).toContain('--- a/Use.kt\n+++ b/Use.kt\n@@ -1,2 +1,2 @@\n-fun use() = Main().run()\n+fun use() = Other().run()');
    for (const [path, text] of Object.entries(FILES)) expect([path, readFileSync(join(workspace, path), 'utf8')]).toEqual([path, text]);
  }, 120_000);

  it('the same edit as a preview is no error (nothing is asked of the disk)', async () => {
    const preview = await call(client, 'rename', { path: 'Main.kt', line: 1, column: 7, new_name: 'Other' });
    expect(preview.isError).toBeFalsy();
    expect(preview.text).toMatch(/^rename Main\.kt -> Other\.kt\n--- a\/Main\.kt/);
    expect(preview.structuredContent).toMatchObject({ applied: false });
  }, 120_000);
});
