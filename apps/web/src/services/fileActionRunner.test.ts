import type { FileOperation } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { EditingRegistry } from '../lib/lsp/editing/registry.js';
import type { FileOperationBatch } from '../lib/lsp/editing/fileOperations.js';
import type { EditTargets } from '../lib/lsp/edits/apply.js';
import type { FileTreeModel } from '../lib/workspace/fileTree.js';
import { runFileAction } from './fileActionRunner.js';

const WS = 'file:///work/demo';
const text = (key: string) => key;

function harness(disk: Record<string, string>, refuse = false) {
  const batches: FileOperation[][] = [];
  const calls: string[] = [];
  const targets: EditTargets = {
    openModel: () => undefined,
    readFile: async (path) => ({ content: disk[path] ?? '', version: `v:${path}` }),
    applyFiles: async (operations) => {
      batches.push(operations);
      return refuse ? { ok: false, conflicts: [{ path: 'src/greet.ts', reason: 'exists' }] as never } : { ok: true, versions: {} };
    },
    afterFilesApplied: () => void calls.push('afterFilesApplied'),
  };
  const tree = {
    refresh: async (folder: string) => void calls.push(`refresh ${folder || '/'}`),
    reveal: async (path: string) => void calls.push(`reveal ${path}`),
  } as unknown as FileTreeModel;
  const editing = new EditingRegistry();
  const heard: Array<{ phase: string; batch: FileOperationBatch }> = [];
  editing.fileOperations.add('s1', 'typescript', {
    willApply: async (batch) => {
      heard.push({ phase: 'will', batch });
      // typescript-language-server's answer to a rename: the import that named the old file.
      return batch.rename.length
        ? [{ changes: { [`${WS}/src/main.ts`]: [{ range: { start: { line: 0, character: 23 }, end: { line: 0, character: 30 } }, newText: './greeting' }] } }]
        : [];
    },
    didApply: (batch) => void heard.push({ phase: 'did', batch }),
  });
  const deps = {
    sessionId: 's1',
    workspace: { editTargets: () => targets, tree, open: async (path: string) => void calls.push(`open ${path}`) },
    identity: { workspaceUri: WS, workspacePath: '/work/demo', repoSubpaths: [] },
    editing,
    text,
  };
  return { deps, batches, calls, heard };
}

describe('a Files panel action (runFileAction)', () => {
  it("a rename asks the session's servers first and applies their import updates with it, all at once; then tells them", async () => {
    const h = harness({ 'src/main.ts': "import { greet } from './greet';\n" });
    const result = await runFileAction({ kind: 'rename', from: 'src/greet.ts', to: 'src/greeting.ts', directory: false }, h.deps);
    expect(result).toEqual({ applied: true });
    expect(h.batches).toEqual([
      [
        { kind: 'write', path: 'src/main.ts', content: "import { greet } from './greeting';\n", baseVersion: 'v:src/main.ts' },
        { kind: 'rename', from: 'src/greet.ts', to: 'src/greeting.ts', overwrite: false, ignoreIfExists: false },
      ],
    ]);
    const files = [{ oldUri: `${WS}/src/greet.ts`, newUri: `${WS}/src/greeting.ts` }];
    expect(h.heard).toEqual([
      { phase: 'will', batch: { create: [], rename: files, delete: [] } },
      { phase: 'did', batch: { create: [], rename: files, delete: [] } },
    ]);
  });

  it('a new file is created, the listings on its way refreshed, and it is revealed and opened', async () => {
    const h = harness({});
    expect(await runFileAction({ kind: 'create', path: 'src/lib/util.ts' }, h.deps)).toEqual({ applied: true });
    expect(h.batches).toEqual([[{ kind: 'create', path: 'src/lib/util.ts', overwrite: false, ignoreIfExists: false }]]);
    expect(h.calls).toEqual(['afterFilesApplied', 'refresh /', 'refresh src', 'refresh src/lib', 'reveal src/lib/util.ts', 'open src/lib/util.ts']);
  });

  it('refused by the task host: nothing is opened and no server hears did', async () => {
    const h = harness({}, true);
    const result = await runFileAction({ kind: 'create', path: 'src/greet.ts' }, h.deps);
    expect(result.applied).toBe(false);
    expect(h.calls).toEqual([]);
    expect(h.heard.map((e) => e.phase)).toEqual(['will']);
  });

  it('before any server told the workspace URI, the action still applies (there is nobody to ask)', async () => {
    const h = harness({});
    const deps = { ...h.deps, identity: undefined, editing: new EditingRegistry() };
    expect(await runFileAction({ kind: 'delete', path: 'notes', directory: true }, deps)).toEqual({ applied: true });
    expect(h.batches).toEqual([[{ kind: 'delete', path: 'notes', recursive: true, ignoreIfNotExists: false }]]);
  });
});
