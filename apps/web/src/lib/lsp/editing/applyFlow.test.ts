import { describe, expect, it } from 'vitest';
import type { WorkspaceEdit } from 'vscode-languageserver-protocol';
import { ServerCapabilityIndex } from '../capabilities.js';
import { confirmationGroups } from '../edits/annotations.js';
import { fakeFeatureContext } from '../testing/featureContext.js';
import { applyEditWithParticipants, type ApplyFlow } from './applyFlow.js';
import { EditConfirmations } from './confirmations.js';
import { fileOperationBatch, fileOperationFilters, fileOperationParticipant, matchesFileOperationFilters, withParticipantEdits } from './fileOperations.js';

const W = 'file:///workspace';
const toPath = (uri: string) => (uri.startsWith(`${W}/`) ? uri.slice(W.length + 1) : undefined);
const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
const kt = [{ scheme: 'file', pattern: { glob: '**/*.kt' } }];

function flow(over: Partial<ApplyFlow> = {}): ApplyFlow & { applied: WorkspaceEdit[] } {
  const applied: WorkspaceEdit[] = [];
  return {
    applied,
    sessionId: 's1',
    toPath,
    confirmations: new EditConfirmations(),
    participants: () => [],
    apply: async (edit) => {
      applied.push(edit);
      return { applied: true };
    },
    text: (key) => key,
    ended: { onAbort: () => undefined },
    ...over,
  };
}

const annotated: WorkspaceEdit = {
  documentChanges: [
    {
      textDocument: { uri: `${W}/a.kt`, version: null },
      edits: [
        { range, newText: 'x', annotationId: 'ask' },
        { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, newText: 'y', annotationId: 'ask' },
      ],
    },
    { textDocument: { uri: `${W}/b.kt`, version: null }, edits: [{ range, newText: 'z', annotationId: 'quiet' }] },
    { kind: 'rename', oldUri: `${W}/c.kt`, newUri: `${W}/d.kt`, annotationId: 'ask' },
  ],
  changeAnnotations: {
    ask: { label: 'Rename across files', description: 'Touches files that are not open', needsConfirmation: true },
    quiet: { label: 'Plain', needsConfirmation: false },
  },
};

describe('change annotations that need confirmation', () => {
  it('lists each annotation needing confirmation with its changes, once per file', () => {
    expect(confirmationGroups(annotated, toPath)).toEqual([
      {
        label: 'Rename across files',
        description: 'Touches files that are not open',
        changes: [
          { kind: 'edit', path: 'a.kt' },
          { kind: 'rename', path: 'c.kt', to: 'd.kt' },
        ],
      },
    ]);
    expect(confirmationGroups({ changes: { [`${W}/a.kt`]: [{ range, newText: 'x' }] } }, toPath)).toEqual([]);
  });

  it('cancel applies nothing and says why; confirm applies the whole edit', async () => {
    const f = flow();
    const declined = applyEditWithParticipants(annotated, f);
    expect(f.confirmations.getSnapshot()).toHaveLength(1);
    f.confirmations.answer(f.confirmations.getSnapshot()[0]!.id, false);
    expect(await declined).toEqual({ applied: false, failureReason: 'confirm.declined' });
    expect(f.applied).toEqual([]);
    const confirmed = applyEditWithParticipants(annotated, f);
    f.confirmations.answer(f.confirmations.getSnapshot()[0]!.id, true);
    expect(await confirmed).toEqual({ applied: true });
    expect(f.confirmations.getSnapshot()).toEqual([]);
  });

  it('a confirmation still open when its connection ends is declined', async () => {
    let abort: () => void = () => undefined;
    const f = flow({
      ended: {
        onAbort: (l) => {
          abort = l;
        },
      },
    });
    const pending = applyEditWithParticipants(annotated, f);
    abort();
    expect(await pending).toMatchObject({ applied: false });
    expect(f.applied).toEqual([]);
    expect(f.confirmations.getSnapshot()).toEqual([]);
  });
});

describe('file operations for resource operations of a WorkspaceEdit', () => {
  const resources: WorkspaceEdit = {
    documentChanges: [
      { kind: 'create', uri: `${W}/new.kt` },
      { kind: 'rename', oldUri: `${W}/old.kt`, newUri: `${W}/moved.kt` },
      { kind: 'delete', uri: `${W}/notes.md` },
    ],
  };

  it('reads filters from the static capability and from dynamic registrations; absent means not asked', () => {
    const caps = new ServerCapabilityIndex({ workspace: { fileOperations: { willRename: { filters: kt } } } }, [
      { id: 'd', method: 'workspace/didDeleteFiles', registerOptions: { filters: [{ pattern: { glob: '**/*.md' } }] } },
    ]);
    expect(fileOperationFilters(caps, 'will', 'rename')).toEqual(kt);
    expect(fileOperationFilters(caps, 'did', 'delete')).toEqual([{ pattern: { glob: '**/*.md' } }]);
    expect(fileOperationFilters(caps, 'will', 'create')).toBeUndefined();
    expect(matchesFileOperationFilters(kt, `${W}/src/a.kt`)).toBe(true);
    expect(matchesFileOperationFilters(kt, `${W}/src/a.ts`)).toBe(false);
    expect(matchesFileOperationFilters([{ scheme: 'untitled', pattern: { glob: '**' } }], `${W}/a.kt`)).toBe(false);
    expect(matchesFileOperationFilters([{ pattern: { glob: '**/*.KT', options: { ignoreCase: true } } }], `${W}/a.kt`)).toBe(true);
  });

  it("will* goes out only for filtered-in files before applying, with the participant's edits first in one edit; did* after", async () => {
    const caps = new ServerCapabilityIndex(
      { workspace: { fileOperations: { willRename: { filters: kt }, didRename: { filters: kt }, willCreate: { filters: kt } } } },
      [{ id: 'd', method: 'workspace/didDeleteFiles', registerOptions: { filters: [{ pattern: { glob: '**/*.md' } }] } }],
    );
    const participantEdit: WorkspaceEdit = { changes: { [`${W}/user.kt`]: [{ range, newText: 'import moved' }] } };
    const fake = fakeFeatureContext({ capabilities: caps, answer: (method) => (method === 'workspace/willRenameFiles' ? participantEdit : null) });
    const f = flow({ participants: () => [fileOperationParticipant(fake.context)] });
    expect(fileOperationBatch(resources)).toEqual({
      create: [{ uri: `${W}/new.kt` }],
      rename: [{ oldUri: `${W}/old.kt`, newUri: `${W}/moved.kt` }],
      delete: [{ uri: `${W}/notes.md` }],
    });
    expect(await applyEditWithParticipants(resources, f)).toEqual({ applied: true });
    expect(fake.requests.map((r) => [r.method, r.params])).toEqual([
      ['workspace/willCreateFiles', { files: [{ uri: `${W}/new.kt` }] }],
      ['workspace/willRenameFiles', { files: [{ oldUri: `${W}/old.kt`, newUri: `${W}/moved.kt` }] }],
    ]);
    expect(f.applied).toEqual([withParticipantEdits([participantEdit], resources)]);
    expect(f.applied[0]!.documentChanges![0]).toEqual({ textDocument: { uri: `${W}/user.kt`, version: null }, edits: [{ range, newText: 'import moved' }] });
    expect(fake.notifications).toEqual([
      { method: 'workspace/didRenameFiles', params: { files: [{ oldUri: `${W}/old.kt`, newUri: `${W}/moved.kt` }] } },
      { method: 'workspace/didDeleteFiles', params: { files: [{ uri: `${W}/notes.md` }] } },
    ]);
  });

  it('nothing is sent to a server without file operation capabilities, and no did* when the edit was not applied', async () => {
    const none = fakeFeatureContext({ capabilities: {} });
    const kotlin = fakeFeatureContext({ capabilities: { workspace: { fileOperations: { didRename: { filters: kt } } } } });
    const f = flow({
      participants: () => [fileOperationParticipant(none.context), fileOperationParticipant(kotlin.context)],
      apply: async () => ({ applied: false, failureReason: 'conflict' }),
    });
    expect(await applyEditWithParticipants(resources, f)).toEqual({ applied: false, failureReason: 'conflict' });
    expect([...none.requests, ...none.notifications, ...kotlin.requests, ...kotlin.notifications]).toEqual([]);
  });
});
