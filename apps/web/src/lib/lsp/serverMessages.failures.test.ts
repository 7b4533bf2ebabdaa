import { ManualClock } from '@kandev/kit';
import { describe, expect, it } from 'vitest';
import { MAX_TOASTS, MESSAGE_TOAST_MS, ServerMessages } from './serverMessages.js';
import type { RequestFailure } from './requestFailures.js';

const TS = { sessionId: 's1', language: 'typescript' } as const;
const GO = { sessionId: 's1', language: 'go' } as const;
const timeout: RequestFailure = { feature: 'completion', reason: 'timeout', deadlineMs: 30_000 };
const failed = (detail: string): RequestFailure => ({ feature: 'definition', reason: 'error', detail });

describe('toasts for requests that got no answer', () => {
  it('the same failure again adds to the count of the one toast instead of stacking up', () => {
    const messages = new ServerMessages(new ManualClock(0));
    for (let i = 0; i < 7; i++) messages.failed(TS, timeout);
    const toasts = messages.getSnapshot();
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toMatchObject({ kind: 'failure', severity: 'warning', count: 7, failure: timeout });
  });

  it('a different failure of the same server takes the place of the one shown (a new toast, announced anew)', () => {
    const messages = new ServerMessages(new ManualClock(0));
    messages.failed(TS, timeout);
    const first = messages.getSnapshot()[0]!.id;
    messages.failed(TS, failed('No definition found'));
    messages.failed(TS, failed('Could not find source file'));
    const toasts = messages.getSnapshot();
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toMatchObject({ kind: 'failure', severity: 'error', count: 1, failure: failed('Could not find source file') });
    expect(toasts[0]!.id).not.toBe(first);
  });

  it('each server has its own, and a server message beside it is left alone', () => {
    const messages = new ServerMessages(new ManualClock(0));
    messages.show(TS, 'info', 'Indexing done');
    messages.failed(TS, timeout);
    messages.failed(GO, timeout);
    messages.failed({ sessionId: 's2', language: 'typescript' }, timeout);
    expect(messages.getSnapshot().map((t) => [t.kind, t.source.sessionId, t.source.language])).toEqual([
      ['message', 's1', 'typescript'],
      ['failure', 's1', 'typescript'],
      ['failure', 's1', 'go'],
      ['failure', 's2', 'typescript'],
    ]);
  });

  it('goes by itself, even an error; a repeat keeps it on screen from the repeat on', () => {
    const clock = new ManualClock(0);
    const messages = new ServerMessages(clock);
    messages.failed(TS, failed('boom'));
    clock.advance(MESSAGE_TOAST_MS - 1);
    messages.failed(TS, failed('boom'));
    clock.advance(MESSAGE_TOAST_MS - 1);
    expect(messages.getSnapshot()).toHaveLength(1);
    clock.advance(1);
    expect(messages.getSnapshot()).toEqual([]);
  });

  it('within the cap of toasts on screen: the oldest plain message makes room for it, a question never does', () => {
    const messages = new ServerMessages(new ManualClock(0));
    const question = messages.ask(GO, 'info', 'Reload?', ['Yes']);
    for (let i = 0; i < MAX_TOASTS - 1; i++) messages.show(TS, 'info', `Message ${i}`);
    messages.failed(TS, timeout);
    const toasts = messages.getSnapshot();
    expect(toasts).toHaveLength(MAX_TOASTS);
    expect(toasts.map((t) => (t.kind === 'message' ? t.text : t.kind))).toEqual(['request', 'Message 1', 'Message 2', 'Message 3', 'failure']);
    question.cancel();
  });
});
