import { ManualClock } from '@kandev/kit';
import { describe, expect, it } from 'vitest';
import type { LanguageId } from '@kandev/protocol';
import type { LspConnection } from '../lib/lsp/connection.js';
import { LspConnectionRegistry } from '../lib/lsp/registry.js';
import type { SessionWorkspace } from '../lib/workspace/sessionWorkspace.js';
import { SessionScope, SessionScopes } from './sessionScope.js';

const BACKGROUND_MS = 60_000;

function harness() {
  const events: string[] = [];
  const sockets = new Map<string, () => void>();
  const registry = new LspConnectionRegistry();
  const clock = new ManualClock(0);
  const scopes = new SessionScopes((sessionId) => {
    const workspace = {
      sessionId,
      dispose: () => events.push(`workspace ${sessionId} disposed`),
      refreshFromDisk: async () => void events.push(`workspace ${sessionId} refreshed`),
    } as unknown as SessionWorkspace;
    return new SessionScope(
      sessionId,
      workspace,
      registry,
      (scope, language: LanguageId) => {
        events.push(`connection ${scope.sessionId}/${language} created`);
        const name = `${scope.sessionId}/${language}`;
        let state = 'ready';
        return {
          sessionId: scope.sessionId,
          language,
          getStatus: () => ({ state }),
          detach: () => {
            events.push(`${name} detached`);
            if (state === 'detached') return undefined;
            state = 'detached';
            // Its socket's close: settled by the test (closeSocket), as a backend's answer would.
            return new Promise<void>((resolve) => sockets.set(name, resolve));
          },
          start: () => {
            events.push(`${name} started`);
            state = 'connecting';
          },
          dispose: () => events.push(`connection ${name} disposed`),
        } as unknown as LspConnection;
      },
      { clock, backgroundDetachMs: () => BACKGROUND_MS },
    );
  });
  return { events, registry, scopes, clock, closeSocket: (name: string) => sockets.get(name)!() };
}

describe('session scopes (a session left for good releases what it held)', () => {
  it('one scope per session; a connection per language is created on first use and then shared', () => {
    const { events, scopes } = harness();
    const a = scopes.acquire('A');
    expect(scopes.acquire('A')).toBe(a);
    expect(a.existingConnection('go')).toBeUndefined();
    expect(a.connection('go')).toBe(a.connection('go'));
    expect(events).toEqual(['connection A/go created']);
  });

  it('leaving a session detaches its connections first, then disposes its workspace; other sessions keep theirs (S30)', () => {
    const { events, registry, scopes } = harness();
    const a = scopes.acquire('A');
    const b = scopes.acquire('B');
    a.connection('go');
    a.connection('python');
    b.connection('go');
    events.length = 0;
    scopes.leave('A');
    expect(events).toEqual(['connection A/go disposed', 'connection A/python disposed', 'workspace A disposed']);
    expect(a.isDisposed).toBe(true);
    expect(() => a.connection('go')).toThrow();
    expect(scopes.get('A')).toBeUndefined();
    expect(registry.forSession('B')).toHaveLength(1);
    // Coming back to a left session starts from a fresh scope (its lease hint reattaches the server).
    expect(scopes.acquire('A')).not.toBe(a);
  });

  it('disposing the window services leaves every session', () => {
    const { events, scopes } = harness();
    scopes.acquire('A').connection('go');
    scopes.acquire('B');
    events.length = 0;
    scopes.dispose();
    expect(events).toEqual(['connection A/go disposed', 'workspace A disposed', 'workspace B disposed']);
  });

  it('a session off screen for the background delay detaches its servers; coming back reattaches them', () => {
    const { events, scopes, clock } = harness();
    const a = scopes.acquire('A');
    const view = a.show();
    a.connection('go');
    a.connection('python');
    events.length = 0;
    view.dispose();
    expect(a.isOnScreen).toBe(false);
    clock.advance(BACKGROUND_MS - 1);
    expect(events).toEqual([]); // a quick look elsewhere keeps both attached (S30/S32/S37)
    clock.advance(1);
    expect(events).toEqual(['A/go detached', 'A/python detached']);
    events.length = 0;
    a.show();
    expect(events).toEqual(['A/go started', 'A/python started']);
  });

  it('coming back within the delay cancels it; a second view of the same session keeps it on screen', () => {
    const { events, scopes, clock } = harness();
    const a = scopes.acquire('A');
    a.connection('go');
    events.length = 0;
    const first = a.show();
    const second = a.show();
    first.dispose();
    first.dispose(); // disposing twice counts once
    clock.advance(BACKGROUND_MS * 2);
    expect(events).toEqual([]);
    second.dispose();
    clock.advance(BACKGROUND_MS / 2);
    const back = a.show();
    clock.advance(BACKGROUND_MS * 2);
    expect(events).toEqual([]); // nothing was detached, so nothing restarts either
    back.dispose();
    clock.advance(BACKGROUND_MS);
    expect(events).toEqual(['A/go detached']);
  });

  it('a session left for good while in the background is disposed, and its delay fires nothing', () => {
    const { events, scopes, clock } = harness();
    const a = scopes.acquire('A');
    a.connection('go');
    a.show().dispose();
    scopes.leave('A');
    events.length = 0;
    clock.advance(BACKGROUND_MS * 2);
    expect(events).toEqual([]);
  });

  it('capacity ran out: every session off screen detaches now, the one on screen keeps its server; settled once all their sockets closed', async () => {
    const { events, scopes, closeSocket } = harness();
    const a = scopes.acquire('A');
    const b = scopes.acquire('B');
    const c = scopes.acquire('C');
    a.connection('go');
    b.connection('go');
    c.connection('go');
    b.show();
    c.show().dispose();
    events.length = 0;
    let closed = false;
    void scopes.detachOffScreen()!.then(() => (closed = true));
    expect(events).toEqual(['A/go detached', 'C/go detached']);
    closeSocket('A/go');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(closed).toBe(false); // C's socket has not closed yet
    closeSocket('C/go');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(closed).toBe(true);
    expect(scopes.detachOffScreen()).toBeUndefined(); // nothing attached is left off screen
  });

  it('a hidden page counts as off screen for the session it shows: detached after the delay, reattached when visible again', () => {
    const { events, scopes, clock } = harness();
    const a = scopes.acquire('A');
    a.show();
    a.connection('go');
    events.length = 0;
    scopes.setPageVisible(false);
    expect(a.isOnScreen).toBe(false);
    clock.advance(BACKGROUND_MS - 1);
    scopes.setPageVisible(true); // a quick look at another browser tab; back, the files catch up with the disk
    clock.advance(BACKGROUND_MS * 2);
    expect(events).toEqual(['workspace A refreshed']);
    scopes.setPageVisible(false);
    clock.advance(BACKGROUND_MS);
    expect(events).toEqual(['workspace A refreshed', 'A/go detached']);
    scopes.setPageVisible(true);
    expect(events).toEqual(['workspace A refreshed', 'A/go detached', 'A/go started', 'workspace A refreshed']);
  });

  it('a scope created while the page is hidden starts off screen; showing it while hidden reattaches nothing', () => {
    const { events, scopes, clock } = harness();
    scopes.setPageVisible(false);
    const a = scopes.acquire('A');
    a.connection('go');
    const view = a.show();
    expect(a.isOnScreen).toBe(false);
    clock.advance(BACKGROUND_MS);
    expect(events).toEqual(['connection A/go created', 'A/go detached']);
    view.dispose(); // already off screen: no second timer
    clock.advance(BACKGROUND_MS);
    expect(events).toEqual(['connection A/go created', 'A/go detached']);
  });
});
