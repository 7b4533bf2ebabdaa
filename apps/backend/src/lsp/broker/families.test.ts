/**
 * Each event family's reducer works on a bare BrokerState, without the LeaseBroker around it: the
 * module a reader follows an event into is the whole of that event's rules (README "Where an event
 * goes"). The behaviour itself is specified by the broker.*.test.ts files.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, parseFrame } from '@kandev/protocol';
import { reduceAttachmentEvent } from './attachments.js';
import { reduceBrowserFrame } from './browserMessages.js';
import { reduceLifecycleEvent } from './lifecycle.js';
import { Outbox } from './outbox.js';
import { reduceServerEvent } from './serverMessages.js';
import { createBrokerState, type BrokerState } from './state.js';
import { T0, WORKSPACE } from './testkit.js';

function bareState(): BrokerState {
  let n = 0;
  return createBrokerState({ newLeaseId: () => `L${++n}` });
}

function connect(state: BrokerState, attachmentId: string): Outbox {
  const out = new Outbox(T0, state.timers);
  reduceAttachmentEvent(
    state,
    { type: 'browserConnected', attachmentId, sessionId: 's', language: 'go', userId: 'u', executorSupported: true, settings: DEFAULT_SETTINGS },
    out,
  );
  return out;
}

describe('event family reducers', () => {
  it('attachments: a connection creates a lease and maps its socket, in the state it was given', () => {
    const state = bareState();
    const out = connect(state, 'a');
    expect(out.effects.map((e) => e.type)).toEqual(['log', 'openUpstream', 'log']);
    expect(state.attachments.get('a')).toBe('L1');
    expect(state.table.get('L1')?.attachment?.id).toBe('a');
  });

  it('server messages: the ready status frame runs the lease and greets its browser', () => {
    const state = bareState();
    connect(state, 'a');
    const out = new Outbox(T0 + 5, state.timers);
    reduceServerEvent(
      state,
      { type: 'upstreamFrame', leaseId: 'L1', frame: parseFrame(JSON.stringify({ status: 'ready', language: 'go', ...WORKSPACE })) },
      out,
    );
    expect(state.table.get('L1')?.phase.kind).toBe('running');
    expect(out.effects).toContainEqual(
      expect.objectContaining({ type: 'sendToBrowser', attachmentId: 'a', frame: expect.objectContaining({ status: 'ready' }) }),
    );
  });

  it('browser messages: a frame of a socket the state does not know changes nothing (S33)', () => {
    const state = bareState();
    const out = new Outbox(T0, state.timers);
    reduceBrowserFrame(state, { type: 'browserFrame', attachmentId: 'gone', frame: parseFrame('{not json') }, out);
    expect(out.effects).toEqual([]);
  });

  it('lifecycle: shutdown ends every lease at once and refuses later connections', () => {
    const state = bareState();
    connect(state, 'a');
    const out = new Outbox(T0, state.timers);
    reduceLifecycleEvent(state, { type: 'shutdown' }, out);
    expect(state.table.all()).toEqual([]);
    expect(state.attachments.size).toBe(0);
    expect(connect(state, 'b').effects).toEqual([{ type: 'closeBrowser', attachmentId: 'b', code: 1001 }]);
  });
});
