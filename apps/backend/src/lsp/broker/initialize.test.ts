import { describe, expect, it } from 'vitest';
import { InitializeExchange } from './initialize.js';

describe('InitializeExchange', () => {
  it('forwards the first initialize and has the broker send initialized when the asker left', () => {
    const x = new InitializeExchange();
    let next = 10;
    expect(x.onBrowserInitialize(1, 'a', { workspaceFolders: [{ uri: 'file:///w' }] }, () => next++)).toEqual({ action: 'forward', serverId: 10 });
    expect(x.workspaceFolders).toEqual([{ uri: 'file:///w' }]);
    expect(x.onDetach(1)).toEqual({ sendInitialized: false });
    expect(x.onServerResponse(10, true, { capabilities: {} })).toEqual({ handled: true, waiter: undefined, ok: true, sendInitialized: true });
    expect(x.initializedSent).toBe(true);
    expect(x.onBrowserInitialized()).toBe(false);
  });

  it('a browser that reconnects before the answer joins the pending exchange: nothing new reaches the server', () => {
    const x = new InitializeExchange();
    x.onBrowserInitialize(1, 'a', {}, () => 1);
    x.onDetach(1);
    expect(
      x.onBrowserInitialize(2, 'b', {}, () => {
        throw new Error('no second initialize');
      }),
    ).toEqual({ action: 'wait' });
    expect(x.onServerResponse(1, true, { capabilities: {} })).toMatchObject({ waiter: { generation: 2, browserId: 'b' }, sendInitialized: false });
    expect(x.onBrowserInitialized()).toBe(true);
    expect(x.onBrowserInitialized()).toBe(false);
  });

  it('a browser gone between the answer and initialized: the broker sends initialized at detach, once', () => {
    const x = new InitializeExchange();
    x.onBrowserInitialize(1, 'a', {}, () => 1);
    x.onServerResponse(1, true, {});
    expect(x.onDetach(1)).toEqual({ sendInitialized: true });
    expect(x.onDetach(1)).toEqual({ sendInitialized: false });
    expect(x.onBrowserInitialize(2, 'b', {}, () => 2)).toEqual({ action: 'reply', result: {} });
  });

  it('a second initialize from the same generation while pending is rejected', () => {
    const x = new InitializeExchange();
    x.onBrowserInitialize(1, 'a', {}, () => 1);
    expect(x.onBrowserInitialize(1, 'again', {}, () => 2)).toMatchObject({ action: 'reject' });
  });

  it('a server error resets the exchange so a later initialize may be forwarded', () => {
    const x = new InitializeExchange();
    x.onBrowserInitialize(1, 'a', {}, () => 1);
    expect(x.onServerResponse(2, false, undefined)).toEqual({ handled: false });
    expect(x.onServerResponse(1, false, undefined)).toMatchObject({ handled: true, ok: false, sendInitialized: false });
    expect(x.forwarded).toBe(false);
    expect(x.onBrowserInitialize(1, 'b', {}, () => 3)).toEqual({ action: 'forward', serverId: 3 });
  });
});
