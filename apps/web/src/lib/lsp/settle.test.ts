import { ManualClock } from '@kandev/kit';
import { describe, expect, it } from 'vitest';
import { CancelSource } from './cancellation.js';
import type { CancellationLike } from './jsonRpc.js';
import { MAX_SETTLE_MS, SettledRequests, settleDelay, settleKey, settlePrefix } from './settle.js';

/** A server stand-in: every request is recorded with its token and answered when told to. */
function server() {
  const sent: Array<{ what: string; token: CancellationLike; answer(value: unknown): void }> = [];
  const send = (what: string) => (token: CancellationLike) =>
    new Promise<unknown>((resolve, reject) => {
      sent.push({ what, token, answer: resolve });
      token.onCancellationRequested(() => reject(new Error('cancelled')));
    });
  return { sent, send };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('SettledRequests: requests the editor makes on its own wait for quiet and are cancelled when superseded', () => {
  it('a burst of calls of one key sends one request, for the last call, once the key was quiet for the delay', async () => {
    const clock = new ManualClock();
    const settled = new SettledRequests(clock);
    const { sent, send } = server();
    const key = settleKey('a.ts', 'tokens');
    const first = settled.request(key, 'v1', 300, undefined, send('v1'));
    clock.advance(100);
    const second = settled.request(key, 'v2', 300, undefined, send('v2'));
    expect(await first).toEqual({ kind: 'superseded' });
    clock.advance(299);
    expect(sent).toEqual([]);
    clock.advance(1);
    expect(sent.map((s) => s.what)).toEqual(['v2']);
    sent[0]?.answer('tokens of v2');
    expect(await second).toEqual({ kind: 'answered', value: 'tokens of v2' });
  });

  it('a key whose answers took longer than its wait then waits as long as its slowest recent answer, up to MAX_SETTLE_MS', async () => {
    expect(settleDelay(300, undefined)).toBe(300);
    expect(settleDelay(300, [120, 80])).toBe(300);
    expect(settleDelay(300, [900, 80])).toBe(900);
    expect(settleDelay(300, [60_000])).toBe(MAX_SETTLE_MS);

    const clock = new ManualClock();
    const settled = new SettledRequests(clock);
    const { sent, send } = server();
    const key = settleKey('big.ts', 'symbols');
    const first = settled.request(key, 'v1', 300, undefined, send('v1'));
    clock.advance(300);
    // The server takes 1.2 s over the outline of this file.
    clock.advance(1_200);
    sent[0]?.answer('outline of v1');
    expect(await first).toEqual({ kind: 'answered', value: 'outline of v1' });
    // Typing goes on at a keystroke per 200 ms: nothing is asked until a pause as long as that answer.
    const next = settled.request(key, 'v2', 300, undefined, send('v2'));
    clock.advance(1_199);
    expect(sent).toHaveLength(1);
    clock.advance(1);
    expect(sent.map((s) => s.what)).toEqual(['v1', 'v2']);
    sent[1]?.answer('outline of v2');
    await next;
    // Another document's key keeps its own wait; a refresh forgets answers but not what they cost.
    settled.forget('');
    void settled.request(settleKey('small.ts', 'symbols'), 'v1', 300, undefined, send('small'));
    void settled.request(key, 'v3', 300, undefined, send('v3'));
    clock.advance(300);
    expect(sent.map((s) => s.what)).toEqual(['v1', 'v2', 'small']);
    clock.advance(900);
    expect(sent.map((s) => s.what)).toEqual(['v1', 'v2', 'small', 'v3']);
    settled.dispose();
  });

  it('a newer call cancels the request of its key still in flight ($/cancelRequest goes through its token)', async () => {
    const clock = new ManualClock();
    const settled = new SettledRequests(clock);
    const { sent, send } = server();
    const key = settleKey('a.ts', 'symbols');
    const first = settled.request(key, 'v1', 300, undefined, send('v1'));
    clock.advance(300);
    expect(sent.map((s) => s.what)).toEqual(['v1']);
    const second = settled.request(key, 'v2', 300, undefined, send('v2'));
    clock.advance(300);
    expect(sent[0]?.token.isCancellationRequested).toBe(true);
    expect(await first).toEqual({ kind: 'superseded' });
    sent[1]?.answer('v2 symbols');
    expect(await second).toEqual({ kind: 'answered', value: 'v2 symbols' });
  });

  it('a caret resting in a file asks nothing more: the same fingerprint gets the last answer, with no wait and no request', async () => {
    const clock = new ManualClock();
    const settled = new SettledRequests(clock);
    const { sent, send } = server();
    const key = settleKey('main.py', 'codeAction');
    const first = settled.request(key, 'v1 0:0', 150, undefined, send('first'));
    clock.advance(150);
    sent[0]?.answer(['organize imports']);
    await first;
    for (let i = 0; i < 5; i++) {
      expect(await settled.request(key, 'v1 0:0', 150, undefined, send('again'))).toEqual({ kind: 'answered', value: ['organize imports'] });
    }
    expect(sent.map((s) => s.what)).toEqual(['first']);
    expect(clock.pending).toBe(0);
  });

  it('identical calls while the request is in flight join it instead of sending it again', async () => {
    const clock = new ManualClock();
    const settled = new SettledRequests(clock);
    const { sent, send } = server();
    const key = settleKey('main.py', 'codeAction');
    const calls = [settled.request(key, 'same', 150, undefined, send('one'))];
    clock.advance(150);
    calls.push(settled.request(key, 'same', 150, undefined, send('two')), settled.request(key, 'same', 150, undefined, send('three')));
    sent[0]?.answer('answer');
    expect(await Promise.all(calls)).toEqual([1, 2, 3].map(() => ({ kind: 'answered', value: 'answer' })));
    expect(sent.map((s) => s.what)).toEqual(['one']);
  });

  it('identical calls while the key still waits share the wait: both get the answer (folding and sticky scroll ask alike)', async () => {
    const clock = new ManualClock();
    const settled = new SettledRequests(clock);
    const { sent, send } = server();
    const key = settleKey('Main.kt', 'foldingRange');
    const first = settled.request(key, 'v4', 300, undefined, send('folding'));
    clock.advance(100);
    const second = settled.request(key, 'v4', 300, undefined, send('sticky'));
    clock.advance(200);
    await flush();
    expect(sent.map((s) => s.what)).toEqual(['folding']);
    sent[0]?.answer([{ startLine: 0, endLine: 1 }]);
    expect(await Promise.all([first, second])).toEqual([1, 2].map(() => ({ kind: 'answered', value: [{ startLine: 0, endLine: 1 }] })));
    // One of them giving up while both wait leaves the other waiting, and its request is sent.
    const cancel = new CancelSource();
    const gone = settled.request(key, 'v5', 300, cancel.token, send('gone'));
    const stays = settled.request(key, 'v5', 300, undefined, send('stays'));
    cancel.cancel();
    expect(await gone).toEqual({ kind: 'superseded' });
    clock.advance(300);
    await flush();
    expect(sent.map((s) => s.what)).toEqual(['folding', 'gone']);
    sent[1]?.answer('v5 answer');
    expect(await stays).toEqual({ kind: 'answered', value: 'v5 answer' });
  });

  it("the caller's token cancels the wait, and cancels the request only when no joined caller still wants it", async () => {
    const clock = new ManualClock();
    const settled = new SettledRequests(clock);
    const { sent, send } = server();
    const key = settleKey('a.ts', 'highlights');
    const waitingCaller = new CancelSource();
    const waiting = settled.request(key, 'v1', 150, waitingCaller.token, send('never'));
    waitingCaller.cancel();
    expect(await waiting).toEqual({ kind: 'superseded' });
    clock.advance(150);
    expect(sent).toEqual([]);

    const a = new CancelSource();
    const b = new CancelSource();
    const first = settled.request(key, 'v2', 150, a.token, send('v2'));
    clock.advance(150);
    const second = settled.request(key, 'v2', 150, b.token, send('joined'));
    a.cancel();
    expect(sent[0]?.token.isCancellationRequested).toBe(false);
    b.cancel();
    expect(sent[0]?.token.isCancellationRequested).toBe(true);
    expect(await first).toEqual({ kind: 'superseded' });
    expect(await second).toEqual({ kind: 'superseded' });
  });

  it('forget (a refresh from the server, a closed document) makes the next identical call ask again; other documents keep theirs', async () => {
    const clock = new ManualClock();
    const settled = new SettledRequests(clock);
    const { sent, send } = server();
    for (const path of ['a.ts', 'b.ts']) {
      const call = settled.request(settleKey(path, 'tokens'), 'v1', 0, undefined, send(path));
      clock.advance(0);
      sent[sent.length - 1]?.answer(path);
      await call;
    }
    settled.forget(settlePrefix('a.ts'));
    void settled.request(settleKey('a.ts', 'tokens'), 'v1', 0, undefined, send('a again'));
    void settled.request(settleKey('b.ts', 'tokens'), 'v1', 0, undefined, send('b again'));
    clock.advance(0);
    await flush();
    expect(sent.map((s) => s.what)).toEqual(['a.ts', 'b.ts', 'a again']);
  });

  it('disposing it (the generation ended) cancels what waits and what is in flight', async () => {
    const clock = new ManualClock();
    const settled = new SettledRequests(clock);
    const { sent, send } = server();
    const inflight = settled.request(settleKey('a.ts', 'x'), 'v1', 0, undefined, send('in flight'));
    clock.advance(0);
    const waiting = settled.request(settleKey('b.ts', 'x'), 'v1', 150, undefined, send('waiting'));
    settled.dispose();
    expect(await waiting).toEqual({ kind: 'superseded' });
    expect(await inflight).toEqual({ kind: 'superseded' });
    expect(sent.map((s) => [s.what, s.token.isCancellationRequested])).toEqual([['in flight', true]]);
    expect(clock.pending).toBe(0);
  });
});
