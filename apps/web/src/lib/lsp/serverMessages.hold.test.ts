import { ManualClock } from '@kandev/kit';
import { describe, expect, it } from 'vitest';
import { MESSAGE_TOAST_MS, ServerMessages } from './serverMessages.js';
import type { RequestFailure } from './requestFailures.js';

const TS = { sessionId: 's1', language: 'typescript' } as const;
const timeout: RequestFailure = { feature: 'completion', reason: 'timeout', deadlineMs: 30_000 };

function shownFor(kind: 'message' | 'failure') {
  const clock = new ManualClock(0);
  const messages = new ServerMessages(clock);
  if (kind === 'message') messages.show(TS, 'info', 'Indexing done');
  else messages.failed(TS, timeout);
  return { clock, messages, id: messages.getSnapshot()[0]!.id };
}

describe('a toast held by the person (pointer over it, focus within it) stays, then runs on with the time it had left', () => {
  for (const kind of ['message', 'failure'] as const) {
    it(`a ${kind}: held after 4 s, it stays as long as it is held; released, it goes 6 s later, not sooner, not later`, () => {
      const { clock, messages, id } = shownFor(kind);
      clock.advance(4_000);
      messages.hold(id, true);
      clock.advance(10 * MESSAGE_TOAST_MS);
      expect(messages.getSnapshot()).toHaveLength(1);
      messages.hold(id, false);
      clock.advance(MESSAGE_TOAST_MS - 4_000 - 1);
      expect(messages.getSnapshot()).toHaveLength(1);
      clock.advance(1);
      expect(messages.getSnapshot()).toEqual([]);
    });
  }

  it('holding twice and releasing once more than needed changes nothing; a release without a hold is ignored', () => {
    const { clock, messages, id } = shownFor('message');
    messages.hold(id, false);
    clock.advance(2_000);
    messages.hold(id, true);
    messages.hold(id, true);
    clock.advance(60_000);
    messages.hold(id, false);
    messages.hold(id, false);
    clock.advance(MESSAGE_TOAST_MS - 2_000 - 1);
    expect(messages.getSnapshot()).toHaveLength(1);
    clock.advance(1);
    expect(messages.getSnapshot()).toEqual([]);
  });

  it('a repeat while held gives it its full time, counted from the release', () => {
    const { clock, messages, id } = shownFor('failure');
    clock.advance(8_000);
    messages.hold(id, true);
    messages.failed(TS, timeout);
    clock.advance(30_000);
    messages.hold(id, false);
    clock.advance(MESSAGE_TOAST_MS - 1);
    expect(messages.getSnapshot()[0]).toMatchObject({ id, count: 2 });
    clock.advance(1);
    expect(messages.getSnapshot()).toEqual([]);
  });

  it('an error message, which stays until dismissed, stays after a hold and release too; a dismissed toast is not brought back', () => {
    const clock = new ManualClock(0);
    const messages = new ServerMessages(clock);
    messages.show(TS, 'error', 'Crashed');
    messages.show(TS, 'info', 'Indexing done');
    const [error, info] = messages.getSnapshot();
    messages.hold(error!.id, true);
    messages.hold(error!.id, false);
    messages.hold(info!.id, true);
    messages.dismiss(info!.id);
    messages.hold(info!.id, false);
    clock.advance(10 * MESSAGE_TOAST_MS);
    expect(messages.getSnapshot().map((t) => t.id)).toEqual([error!.id]);
  });
});
