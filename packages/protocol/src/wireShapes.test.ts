import { describe, expect, it } from 'vitest';
import { parseApplyFilesRequest, MAX_FILE_OPERATIONS } from './fileOperations.js';
import { parsePersistedLease } from './persistedLease.js';
import { readyFrameIdentity } from './readyFrame.js';
import { MAX_REPORTED_BUILD_FILES, parseTrustedToolPins } from './trustedTools.js';
import { MAX_IN_VIEW_PATHS, parseInViewControl, parseWorkspaceEventFrame } from './workspaceEvents.js';

/** One schema per wire shape: a good value passes as sent, a bad one is refused whole with a code and the member named. */
describe('wire shapes', () => {
  it('file operations: a batch passes as sent; a wrong member refuses the whole batch, naming it', () => {
    const batch = {
      operations: [
        { kind: 'write', path: 'a.ts', content: '', baseVersion: 'v1' },
        { kind: 'create', path: 'b.ts', ignoreIfExists: true },
        { kind: 'rename', from: 'c.ts', to: 'd.ts' },
        { kind: 'delete', path: 'e', recursive: true },
      ],
    };
    expect(parseApplyFilesRequest(batch)).toEqual({ ok: true, value: batch });
    const refused = (body: unknown) => {
      const parsed = parseApplyFilesRequest(body);
      return parsed.ok ? undefined : parsed.error;
    };
    expect(refused({ operations: [{ kind: 'write', path: 'a' }] })).toEqual({
      code: 'invalid_shape',
      message: 'files/apply body: operations.0.content: must be a string',
      path: 'operations.0.content',
    });
    expect(
      refused({
        operations: [
          { kind: 'write', path: 'a', content: '' },
          { kind: 'chmod', path: 'a' },
        ],
      })?.message,
    ).toMatch(/operations\.1\.kind: .*write, create, rename or delete/);
    expect(refused({ operations: [{ kind: 'delete', path: 'a', recursive: 'yes' }] })?.message).toBe(
      'files/apply body: operations.0.recursive: must be true or false',
    );
    expect(refused({ operations: [{ kind: 'rename', from: '', to: 'b' }] })?.path).toBe('operations.0.from');
    expect(refused({ operations: [] })?.message).toMatch(/^files\/apply body: operations: must be a list of 1 to/);
    expect(refused({ operations: Array.from({ length: MAX_FILE_OPERATIONS + 1 }, () => ({ kind: 'delete', path: 'a' })) })?.path).toBe('operations');
    expect(refused(null)?.message).toMatch(/the body must be \{"operations"/);
  });

  it(`the in_view control: at most ${MAX_IN_VIEW_PATHS} paths of each kind, declared once`, () => {
    const control = (files: unknown, folders: unknown = ['']) => JSON.stringify({ type: 'in_view', files, folders });
    expect(parseInViewControl(control(['a.ts']), 'page')).toEqual({ ok: true, value: { type: 'in_view', files: ['a.ts'], folders: [''] } });
    const atLimit = Array.from({ length: MAX_IN_VIEW_PATHS }, (_, i) => `f${i}`);
    expect(parseInViewControl(control(atLimit), 'page').ok).toBe(true);
    expect(parseInViewControl(control([...atLimit, 'one-more']), 'page')).toMatchObject({ ok: false, error: { code: 'invalid_shape', path: 'files' } });
    expect(parseInViewControl(control(['a', 3]), 'page')).toMatchObject({ ok: false, error: { path: 'files.1' } });
    expect(parseInViewControl('{"type":"in_view"', 'page')).toMatchObject({ ok: false, error: { code: 'invalid_shape' } });
    expect(parseInViewControl(JSON.stringify({ type: 'other', files: [], folders: [] }), 'page')).toMatchObject({ ok: false, error: { path: 'type' } });
  });

  it('workspace events: a known frame passes, a newer type is unknown (not an error), a wrong one is refused whole', () => {
    const files = { type: 'files', changes: [{ kind: 'renamed', from: 'a', path: 'b', directory: false }] };
    expect(parseWorkspaceEventFrame(JSON.stringify(files))).toEqual({ kind: 'frame', frame: files });
    expect(parseWorkspaceEventFrame(JSON.stringify({ type: 'from_the_future' }))).toEqual({ kind: 'unknown' });
    const bad = parseWorkspaceEventFrame(JSON.stringify({ type: 'files', changes: [{ kind: 'renamed', path: 'b', directory: false }] }));
    expect(bad).toMatchObject({ kind: 'invalid', error: { code: 'invalid_shape', path: 'changes.0.from' } });
    const badGit = parseWorkspaceEventFrame(
      JSON.stringify({ type: 'git', state: { available: true, branch: null, head: null, files: [{ path: 'a', status: 'odd' }] } }),
    );
    expect(badGit).toMatchObject({ kind: 'invalid', error: { path: 'state.files.0.status' } });
    expect(parseWorkspaceEventFrame('not json')).toMatchObject({ kind: 'invalid' });
  });

  it("the ready frame's identity: refused whole, naming the field", () => {
    expect(readyFrameIdentity({ workspaceUri: 'file:///w', workspacePath: '/w', repoSubpaths: ['a', null] })).toEqual({
      ok: false,
      error: 'ready frame: repoSubpaths must be an array of strings',
    });
  });

  it('trusted-tool pins: keyed by tool id; a wrong member refuses them whole', () => {
    const pins = { tools: { tsserver: '/opt/ts/lib/tsserver.js' }, buildFiles: ['build.gradle'], network: 'off' };
    expect(parseTrustedToolPins(pins, 'ready frame')).toEqual({ ok: true, value: pins });
    expect(parseTrustedToolPins({ tools: { python: '' } }, 'ready frame')).toMatchObject({
      ok: false,
      error: { code: 'invalid_shape', message: 'ready frame trustedTools: tools.python: must be a non-empty string' },
    });
    expect(parseTrustedToolPins({ network: 'on' }, 'ready frame')).toMatchObject({ ok: false, error: { path: 'network' } });
    const many = Array.from({ length: MAX_REPORTED_BUILD_FILES + 1 }, (_, i) => `m${i}/pom.xml`);
    expect(parseTrustedToolPins({ buildFiles: many }, 'ready frame')).toMatchObject({ ok: false, error: { path: 'buildFiles' } });
  });

  it('the persisted lease: one shape; a wrong member refuses the stored lease whole', () => {
    const lease = {
      id: 'L1',
      sessionId: 's1',
      language: 'typescript',
      userId: 'local',
      trustWorkspaceTools: false,
      stream: 3,
      workspace: { workspaceUri: 'file:///w', workspacePath: '/w', repoSubpaths: [] },
      initializeParams: { capabilities: {} },
      initializeResult: null,
      registrations: [],
      trustedTools: { tools: { tsserver: '/opt/ts/lib/tsserver.js' } },
      createdAt: 1,
    };
    expect(parsePersistedLease(lease)).toEqual({ ok: true, value: lease });
    expect(parsePersistedLease({ ...lease, language: 'cobol' })).toMatchObject({ ok: false, error: { path: 'language' } });
    expect(parsePersistedLease({ ...lease, stream: -1 })).toMatchObject({ ok: false, error: { path: 'stream' } });
    expect(parsePersistedLease({ ...lease, trustedTools: { buildFiles: 'pom.xml' } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_shape', path: 'trustedTools.buildFiles' },
    });
  });
});
