import { describe, expect, it } from 'vitest';
import { ManualClock } from '@kandev/kit';
import { BuiltinSuppression } from '../builtins.js';
import { ServerCapabilityIndex } from '../capabilities.js';
import { clientCapabilities } from '../clientCapabilities.js';
import { ResponseError } from '../jsonRpc.js';
import { fakeFeatureContext } from '../testing/featureContext.js';
import { createFakeMonaco } from '../testing/fakeMonaco.js';
import { createMonacoFeatureBinder } from './bind.js';
import { INTER_FILE_PULL_DELAY_MS, readReport, RETRIGGER_PULL_DELAY_MS } from './pullDiagnostics.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- requests and answers are read as the wire has them */

const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};
const range = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 3 } });
const finding = (line: number, message: string) => ({ range: range(line), message, severity: 1 });
const uriOf = (path: string) => `file:///workspace/${path}`;
const pythonRegistration = (id: string, identifier: string, more: Record<string, unknown> = {}) => ({
  id,
  method: 'textDocument/diagnostic',
  registerOptions: { documentSelector: null, identifier, interFileDependencies: false, workspaceDiagnostics: false, ...more },
});

/**
 * One generation bound to the fake Monaco, with `open` documents already open on the server side
 * and models for them; `answer` plays the server.
 */
function setup(options: { caps?: Record<string, unknown>; replayed?: unknown[]; open?: string[]; answer: (params: any, method: string) => unknown }) {
  const fake = createFakeMonaco();
  const clock = new ManualClock();
  const open = new Set(options.open ?? []);
  const capabilities = new ServerCapabilityIndex(options.caps ?? {}, options.replayed ?? []);
  const ctx = fakeFeatureContext({
    language: 'python',
    capabilities,
    answer: (method, params) => options.answer(params, method),
    open: (path) => open.has(path),
    openPaths: () => [...open],
    clock,
  });
  for (const path of ['a.py', 'b.py', 'c.py']) fake.addModel('kandev-session', 's1', `/${path}`, 'x = 1\n');
  const bind = createMonacoFeatureBinder({ monaco: fake.monaco, suppression: new BuiltinSuppression(), acquireModel: async () => undefined });
  const binding = bind(ctx.context);
  const messages = (path: string) =>
    fake.editor
      .getModelMarkers({ resource: fake.monaco.Uri.from({ scheme: 'kandev-session', authority: 's1', path: `/${path}` }) as any })
      .map((m: any) => m.message)
      .sort();
  const pulls = () => ctx.requests.filter((r) => r.method === 'textDocument/diagnostic');
  const openDoc = (path: string) => {
    open.add(path);
    ctx.sync.fire({ path, kind: 'open' });
  };
  const closeDoc = (path: string) => {
    open.delete(path);
    ctx.sync.fire({ path, kind: 'close' });
  };
  return { fake, clock, capabilities, ctx, binding, messages, pulls, openDoc, closeDoc, change: (path: string) => ctx.sync.fire({ path, kind: 'change' }) };
}

describe('pull diagnostics (textDocument/diagnostic)', () => {
  it('a dynamic registration with a null selector pulls every document already open, as pyright registers it', async () => {
    const t = setup({ open: ['a.py', 'b.py'], answer: (p) => ({ kind: 'full', resultId: '1', items: [finding(0, `in ${p.textDocument.uri}`)] }) });
    await settle();
    expect(t.pulls()).toEqual([]);
    t.capabilities.register([pythonRegistration('reg-1', 'pyright')]);
    await settle();
    expect(t.pulls().map((r) => r.params)).toEqual([
      { textDocument: { uri: uriOf('a.py') }, identifier: 'pyright' },
      { textDocument: { uri: uriOf('b.py') }, identifier: 'pyright' },
    ]);
    expect(t.messages('a.py')).toEqual([`in ${uriOf('a.py')}`]);
    expect(t.messages('b.py')).toEqual([`in ${uriOf('b.py')}`]);
  });

  it('two registrations are pulled each with its identifier and merged without duplicates; unregistering one takes only its own findings away', async () => {
    const t = setup({
      open: ['a.py'],
      answer: (p) => ({
        kind: 'full',
        items: p.identifier === 'one' ? [finding(0, 'shared'), finding(1, 'only one')] : [finding(0, 'shared'), finding(2, 'only two')],
      }),
    });
    t.capabilities.register([pythonRegistration('r1', 'one'), pythonRegistration('r2', 'two')]);
    await settle();
    expect(t.pulls().map((r) => r.params.identifier)).toEqual(['one', 'two']);
    expect(t.messages('a.py')).toEqual(['only one', 'only two', 'shared']);
    t.capabilities.unregister([{ id: 'r2', method: 'textDocument/diagnostic' }]);
    expect(t.messages('a.py')).toEqual(['only one', 'shared']);
    t.change('a.py');
    await settle();
    expect(
      t
        .pulls()
        .slice(2)
        .map((r) => r.params.identifier),
    ).toEqual(['one']);
    t.capabilities.unregister([{ id: 'r1', method: 'textDocument/diagnostic' }]);
    expect(t.messages('a.py')).toEqual([]);
  });

  it('a re-registration of an unchanged registration (another dynamic registration arriving) does not pull again', async () => {
    const t = setup({ open: ['a.py'], answer: () => ({ kind: 'full', items: [] }) });
    t.capabilities.register([pythonRegistration('r1', 'one')]);
    await settle();
    t.capabilities.register([{ id: 'w', method: 'workspace/symbol', registerOptions: {} }]);
    await settle();
    expect(t.pulls()).toHaveLength(1);
  });

  it('a static provider pulls on open and change with the previous result id; "unchanged" keeps the markers; close clears them', async () => {
    const reports: unknown[] = [
      { kind: 'full', resultId: 'r1', items: [finding(0, 'first')] },
      { kind: 'unchanged', resultId: 'r1' },
      { kind: 'full', resultId: 'r2', items: [finding(1, 'second')] },
    ];
    const t = setup({
      caps: { diagnosticProvider: { identifier: 'ts', interFileDependencies: false, workspaceDiagnostics: false } },
      answer: () => reports.shift(),
    });
    t.openDoc('a.py');
    await settle();
    expect(t.pulls()[0]!.params).toEqual({ textDocument: { uri: uriOf('a.py') }, identifier: 'ts' });
    expect(t.messages('a.py')).toEqual(['first']);
    t.change('a.py');
    await settle();
    expect(t.pulls()[1]!.params.previousResultId).toBe('r1');
    expect(t.messages('a.py')).toEqual(['first']);
    t.change('a.py');
    await settle();
    expect(t.pulls()[2]!.params.previousResultId).toBe('r1');
    expect(t.messages('a.py')).toEqual(['second']);
    t.closeDoc('a.py');
    expect(t.messages('a.py')).toEqual([]);
    t.openDoc('a.py');
    expect(t.pulls()[3]!.params.previousResultId).toBeUndefined();
    expect(readReport({ kind: 'bogus' } as any)).toBeUndefined();
  });

  it('workspace/diagnostic/refresh pulls every open document of every registration, including those opened before it registered', async () => {
    let round = 0;
    const t = setup({ open: ['a.py', 'b.py'], answer: (p) => ({ kind: 'full', items: [finding(0, `${p.identifier} round ${round}`)] }) });
    t.capabilities.register([pythonRegistration('r1', 'one')]);
    await settle();
    round = 1;
    t.ctx.refresh.diagnostic.fire();
    await settle();
    expect(t.pulls().map((r) => r.params.textDocument.uri)).toEqual([uriOf('a.py'), uriOf('b.py'), uriOf('a.py'), uriOf('b.py')]);
    expect(t.messages('b.py')).toEqual(['one round 1']);
  });

  it('a server that answered empty while it loaded is asked again on its refresh, which the client asks for under both spellings', async () => {
    // LSP 3.17's `workspace.diagnostics`, and the singular `workspace.diagnostic` that servers on
    // Rust's lsp-types read (tombi, when pulled, sends no refresh without it).
    const workspace = clientCapabilities().workspace as Record<string, unknown>;
    expect(workspace.diagnostics).toEqual({ refreshSupport: true });
    expect(workspace.diagnostic).toEqual({ refreshSupport: true });
    let loaded = false;
    const t = setup({
      open: ['a.py'],
      caps: { diagnosticProvider: { identifier: 'one' } },
      answer: () => ({ kind: 'full', items: loaded ? [finding(8, 'duplicate key')] : [] }),
    });
    await settle();
    expect(t.messages('a.py')).toEqual([]);
    loaded = true;
    t.ctx.refresh.diagnostic.fire();
    await settle();
    expect(t.messages('a.py')).toEqual(['duplicate key']);
  });

  it('interFileDependencies: an edit pulls the other open documents once the edits settle, not the edited one again', async () => {
    const t = setup({ open: ['a.py', 'b.py', 'c.py'], answer: () => ({ kind: 'full', items: [] }) });
    t.capabilities.register([pythonRegistration('r1', 'one', { interFileDependencies: true })]);
    await settle();
    expect(t.pulls()).toHaveLength(3);
    t.change('a.py');
    t.clock.advance(INTER_FILE_PULL_DELAY_MS - 1);
    t.change('a.py');
    t.clock.advance(INTER_FILE_PULL_DELAY_MS - 1);
    await settle();
    expect(
      t
        .pulls()
        .slice(3)
        .map((r) => r.params.textDocument.uri),
    ).toEqual([uriOf('a.py'), uriOf('a.py')]);
    t.clock.advance(1);
    await settle();
    expect(
      t
        .pulls()
        .slice(5)
        .map((r) => r.params.textDocument.uri),
    ).toEqual([uriOf('b.py'), uriOf('c.py')]);
  });

  it('without interFileDependencies an edit pulls only the edited document', async () => {
    const t = setup({ open: ['a.py', 'b.py'], answer: () => ({ kind: 'full', items: [] }) });
    t.capabilities.register([pythonRegistration('r1', 'one')]);
    await settle();
    t.change('a.py');
    t.clock.advance(INTER_FILE_PULL_DELAY_MS * 4);
    await settle();
    expect(
      t
        .pulls()
        .slice(2)
        .map((r) => r.params.textDocument.uri),
    ).toEqual([uriOf('a.py')]);
  });

  it('a related report never overrides a pull of that document still in flight', async () => {
    const t = setup({
      open: ['a.py', 'b.py'],
      answer: (p) =>
        p.textDocument.uri === uriOf('a.py')
          ? {
              kind: 'full',
              items: [finding(0, 'in a')],
              relatedDocuments: { [uriOf('b.py')]: { kind: 'full', resultId: 'b1', items: [finding(3, 'in b, from a')] } },
            }
          : new Promise(() => undefined),
    });
    t.capabilities.register([pythonRegistration('r1', 'one')]);
    await settle();
    expect(t.messages('a.py')).toEqual(['in a']);
    // b.py's own pull is still on its way: a related report never overrides it.
    expect(t.messages('b.py')).toEqual([]);
  });

  it('related documents reach a document with no pull of its own in flight, and its result id is kept', async () => {
    let relatedFirst = true;
    const t = setup({
      open: ['b.py'],
      answer: (p) => {
        if (p.textDocument.uri === uriOf('a.py'))
          return { kind: 'full', items: [], relatedDocuments: { [uriOf('b.py')]: { kind: 'full', resultId: 'b9', items: [finding(3, 'in b, from a')] } } };
        if (relatedFirst) return { kind: 'full', resultId: 'b1', items: [] };
        return { kind: 'unchanged', resultId: 'b9' };
      },
    });
    t.capabilities.register([pythonRegistration('r1', 'one')]);
    await settle();
    t.openDoc('a.py');
    await settle();
    expect(t.messages('b.py')).toEqual(['in b, from a']);
    relatedFirst = false;
    t.change('b.py');
    await settle();
    expect(t.pulls().at(-1)!.params.previousResultId).toBe('b9');
    expect(t.messages('b.py')).toEqual(['in b, from a']);
  });

  it('a server that pushes and is pulled shows each finding once; a push clearing leaves the pulled ones', async () => {
    const t = setup({ open: ['a.py'], answer: () => ({ kind: 'full', items: [finding(0, 'both'), finding(1, 'pulled')] }) });
    t.capabilities.register([pythonRegistration('r1', 'one')]);
    await settle();
    t.binding.publishDiagnostics({ uri: uriOf('a.py'), diagnostics: [finding(0, 'both'), finding(2, 'pushed')] as any });
    expect(t.messages('a.py')).toEqual(['both', 'pulled', 'pushed']);
    t.binding.publishDiagnostics({ uri: uriOf('a.py'), diagnostics: [] });
    expect(t.messages('a.py')).toEqual(['both', 'pulled']);
  });

  it('a server-cancelled pull is asked again after a pause unless the server says not to', async () => {
    let answers: unknown[] = [new ResponseError(-32802, 'busy', { retriggerRequest: true }), { kind: 'full', items: [finding(0, 'late')] }];
    const t = setup({
      open: ['a.py'],
      answer: () => {
        const next = answers.shift();
        if (next instanceof Error) throw next;
        return next;
      },
    });
    t.capabilities.register([pythonRegistration('r1', 'one')]);
    await settle();
    expect(t.messages('a.py')).toEqual([]);
    t.clock.advance(RETRIGGER_PULL_DELAY_MS);
    await settle();
    expect(t.messages('a.py')).toEqual(['late']);
    answers = [new ResponseError(-32802, 'no', { retriggerRequest: false })];
    t.change('a.py');
    await settle();
    t.clock.advance(RETRIGGER_PULL_DELAY_MS * 4);
    await settle();
    expect(t.pulls()).toHaveLength(3);
  });

  it('reattach: the next generation, rebuilt from the replayed registrations, repaints with its first pull and the old markers leave', async () => {
    const first = setup({ open: ['a.py'], answer: () => ({ kind: 'full', resultId: 'x', items: [finding(0, 'old')] }) });
    first.capabilities.register([pythonRegistration('r1', 'one')]);
    await settle();
    expect(first.messages('a.py')).toEqual(['old']);
    const replayed = first.capabilities.dynamicRegistrations();
    first.binding.dispose();
    expect(first.messages('a.py')).toEqual([]);
    // Resumed: no initialize, the registrations come from the ready frame; the documents reopen.
    const second = setup({ replayed, answer: () => ({ kind: 'full', resultId: 'y', items: [finding(0, 'new')] }) });
    second.openDoc('a.py');
    await settle();
    expect(second.pulls()[0]!.params).toEqual({ textDocument: { uri: uriOf('a.py') }, identifier: 'one' });
    expect(second.messages('a.py')).toEqual(['new']);
  });

  it('an answer that arrives after the generation ended paints nothing', async () => {
    let release: (v: unknown) => void = () => undefined;
    const t = setup({ open: ['a.py'], answer: () => new Promise((resolve) => (release = resolve)) });
    t.capabilities.register([pythonRegistration('r1', 'one')]);
    await settle();
    expect(t.pulls()[0]!.token!.isCancellationRequested).toBe(false);
    t.binding.dispose();
    expect(t.pulls()[0]!.token!.isCancellationRequested).toBe(true);
    release({ kind: 'full', items: [finding(0, 'late')] });
    await settle();
    expect(t.messages('a.py')).toEqual([]);
  });

  it('a newer pull of the same document cancels the one in flight', async () => {
    const t = setup({ caps: { diagnosticProvider: {} }, answer: () => new Promise(() => undefined) });
    t.openDoc('a.py');
    t.change('a.py');
    expect(t.pulls()[0]!.token!.isCancellationRequested).toBe(true);
    expect(t.pulls()[1]!.token!.isCancellationRequested).toBe(false);
  });
});
