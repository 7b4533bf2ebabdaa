import { DEFAULT_SETTINGS } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import type { AdoptedLeaseState } from './types.js';
import {
  BrokerHarness,
  INIT_RESULT,
  WORKSPACE,
  didChange,
  didOpen,
  notif,
  ofType,
  openedLease,
  req,
  res,
  settingsWith,
  statusFrames,
  toServer,
} from './testkit.js';
import { configFingerprint } from './settings.js';
import { DETACHED_DEADLINE_MS } from './deadlines.js';

const URI = 'file:///workspace/repoA/main.go';

function adoptedState(overrides: Partial<AdoptedLeaseState> = {}): AdoptedLeaseState {
  return {
    id: 'old-lease',
    sessionId: 's1',
    language: 'go',
    userId: 'u1',
    trustWorkspaceTools: false,
    stream: 7,
    workspace: WORKSPACE,
    initializeParams: { capabilities: {} },
    initializeResult: INIT_RESULT,
    registrations: [{ id: 'r1', method: 'workspace/didChangeWatchedFiles' }],
    openDocuments: [{ uri: URI, version: 12 }],
    maxRequestId: 40,
    createdAt: 0,
    ...overrides,
  };
}

describe('leases across a backend restart', () => {
  it('journals a running lease once initialized on a known stream, again when a registration changes, and drops it when it ends', () => {
    const h = new BrokerHarness();
    const leaseId = openedLease(h.connect('a1'));
    h.hostStatus(leaseId, { status: 'ready', language: 'go', ...WORKSPACE, stream: 3 });
    const known = new Map<string, string>();
    // Not initialized yet: nothing another backend could resume.
    expect(h.broker.journalChanges(known)).toEqual({ save: [], remove: [] });
    const sent = toServer(h.fromBrowser('a1', req('i', 'initialize', { capabilities: {} })));
    h.fromServer(leaseId, res(sent[0]!.id as number, INIT_RESULT));
    h.fromBrowser('a1', notif('initialized', {}));
    const first = h.broker.journalChanges(known);
    expect(first.save).toMatchObject([{ id: leaseId, stream: 3, initializeResult: INIT_RESULT, registrations: [], workspace: WORKSPACE }]);
    known.set(leaseId, first.save[0]!.signature);
    expect(h.broker.journalChanges(known)).toEqual({ save: [], remove: [] });

    const forwarded = ofType(
      h.fromServer(leaseId, req(90, 'client/registerCapability', { registrations: [{ id: 'w', method: 'workspace/didChangeWatchedFiles' }] })),
      'sendToBrowser',
    )[0]?.frame as unknown as { id: number };
    h.fromBrowser('a1', res(forwarded.id, null));
    const registered = h.broker.journalChanges(known);
    expect(registered.save.map((l) => l.registrations)).toEqual([[{ id: 'w', method: 'workspace/didChangeWatchedFiles' }]]);
    known.set(leaseId, registered.save[0]!.signature);

    h.control('a1', { control: 'release', reason: 'stop' });
    expect(h.broker.journalChanges(known)).toEqual({ save: [], remove: [leaseId] });
  });

  it("never journals an agent's lease: its MCP client dies with the backend, and adopted it would come back as a person's", () => {
    const h = new BrokerHarness();
    const person = openedLease(h.connect('p1'));
    const agent = openedLease(h.connect('m1', { session: 's1', language: 'python', agent: true }));
    for (const [attachment, leaseId, stream] of [
      ['p1', person, 3],
      ['m1', agent, 4],
    ] as const) {
      h.hostStatus(leaseId, { status: 'ready', language: leaseId === person ? 'go' : 'python', ...WORKSPACE, stream });
      const sent = toServer(h.fromBrowser(attachment, req('i', 'initialize', { capabilities: {} })));
      h.fromServer(leaseId, res(sent[0]!.id as number, INIT_RESULT));
      h.fromBrowser(attachment, notif('initialized', {}));
    }
    expect(h.broker.lease(agent)).toMatchObject({ ownerKind: 'agent', phase: 'running' });
    expect(h.broker.journalChanges(new Map()).save.map((l) => l.id)).toEqual([person]);
  });

  it('an adopted lease comes back detached on its stream: the open documents are closed, and its hint resumes it without an initialize', () => {
    const h = new BrokerHarness();
    const adopted = h.handle({ type: 'leaseAdopted', lease: adoptedState(), settings: DEFAULT_SETTINGS });
    expect(ofType(adopted, 'resumeUpstream')).toEqual([
      { type: 'resumeUpstream', leaseId: 'old-lease', sessionId: 's1', language: 'go', trustWorkspaceTools: false, stream: 7 },
    ]);
    expect(ofType(adopted, 'openUpstream')).toEqual([]);
    expect(toServer(adopted, 'old-lease').filter((m) => 'method' in m && m.method === 'textDocument/didClose')).toEqual([
      notif('textDocument/didClose', { textDocument: { uri: URI } }),
    ]);
    // Detached: its one-hour deadline runs from now.
    expect([...h.armedTimers().values()]).toContain(h.now + DETACHED_DEADLINE_MS);
    expect(h.broker.lease('old-lease')).toMatchObject({ phase: 'running', initialize: 'answered' });

    const back = h.connect('a2', { session: 's1', language: 'go', user: 'u1', hint: 'old-lease' });
    expect(statusFrames(back, 'a2')).toEqual([
      expect.objectContaining({
        status: 'ready',
        lease: 'old-lease',
        resumed: true,
        initializeResult: INIT_RESULT,
        registrations: [{ id: 'r1', method: 'workspace/didChangeWatchedFiles' }],
      }),
    ]);
    // The browser reopens its document: the server's versions go on above what it last saw (12).
    const reopened = toServer(h.fromBrowser('a2', didOpen(URI, 1)), 'old-lease');
    expect(reopened).toMatchObject([{ method: 'textDocument/didOpen', params: { textDocument: { version: 13 } } }]);
    expect(toServer(h.fromBrowser('a2', didChange(URI, 2)), 'old-lease')).toMatchObject([{ params: { textDocument: { version: 14 } } }]);
    // Its requests are numbered above the old backend's, whose late answers are then never taken for ours.
    const hover = toServer(h.fromBrowser('a2', req('h', 'textDocument/hover', { textDocument: { uri: URI }, position: { line: 0, character: 0 } })));
    expect(hover[0]?.id).toBe(41);
    expect(h.broker.journalChanges(new Map()).save.map((l) => [l.id, l.stream])).toEqual([['old-lease', 7]]);
  });

  it('settings saved while no backend ran reach the adopted server once; settings it was already told are not pushed again', () => {
    const told = settingsWith({ go: { gopls: { staticcheck: false } } });
    const toldFingerprint = configFingerprint({ gopls: { staticcheck: false } });
    const same = new BrokerHarness().handle({ type: 'leaseAdopted', lease: adoptedState({ configFingerprint: toldFingerprint }), settings: told });
    expect(toServer(same, 'old-lease').filter((m) => 'method' in m && m.method === 'workspace/didChangeConfiguration')).toEqual([]);

    const h = new BrokerHarness();
    const saved = settingsWith({ go: { gopls: { staticcheck: true } } });
    const changed = h.handle({ type: 'leaseAdopted', lease: adoptedState({ configFingerprint: toldFingerprint }), settings: saved });
    expect(toServer(changed, 'old-lease').filter((m) => 'method' in m && m.method === 'workspace/didChangeConfiguration')).toEqual([
      notif('workspace/didChangeConfiguration', { settings: { gopls: { staticcheck: true } } }),
    ]);
    // What the server was told now is what the next restart compares with.
    expect(h.broker.journalChanges(new Map()).save[0]?.configFingerprint).toBe(configFingerprint({ gopls: { staticcheck: true } }));
  });

  it('an adopted lease nobody reclaims expires after the detached deadline like any other', () => {
    const h = new BrokerHarness();
    h.handle({ type: 'leaseAdopted', lease: adoptedState({ openDocuments: [] }), settings: DEFAULT_SETTINGS });
    const expired = h.advance(DETACHED_DEADLINE_MS);
    expect(toServer(expired, 'old-lease').map((m) => ('method' in m ? m.method : 'response'))).toEqual(['shutdown']);
    expect(h.broker.metrics().releasedTotal.expiry).toBe(1);
  });
});
