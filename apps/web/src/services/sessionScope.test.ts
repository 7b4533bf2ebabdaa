import { describe, expect, it } from 'vitest';
import type { LanguageId } from '@kandev/protocol';
import type { LspConnection } from '../lib/lsp/connection.js';
import { LspConnectionRegistry } from '../lib/lsp/registry.js';
import type { SessionWorkspace } from '../lib/workspace/sessionWorkspace.js';
import { SessionScope, SessionScopes } from './sessionScope.js';

function harness() {
  const events: string[] = [];
  const registry = new LspConnectionRegistry();
  const scopes = new SessionScopes((sessionId) => {
    const workspace = { sessionId, dispose: () => events.push(`workspace ${sessionId} disposed`) } as unknown as SessionWorkspace;
    return new SessionScope(sessionId, workspace, registry, (scope, language: LanguageId) => {
      events.push(`connection ${scope.sessionId}/${language} created`);
      return { sessionId: scope.sessionId, language, dispose: () => events.push(`connection ${scope.sessionId}/${language} disposed`) } as unknown as LspConnection;
    });
  });
  return { events, registry, scopes };
}

describe('session scopes (issue 12: a session left for good releases what it held)', () => {
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
});
