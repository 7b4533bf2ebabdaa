import type { LanguageId } from '@kandev/protocol';
import { useEffect, useState } from 'react';
import type { LspConnection } from '../lib/lsp/connection.js';
import type { MonacoApi } from '../lib/lsp/providers/host.js';
import type { SessionScope } from './sessionScope.js';
import { useServices } from './ServicesContext.js';

/**
 * The scope (workspace + connections) of the session on screen, acquired in an effect: undefined
 * for the first render. Unmounting keeps it (switching sessions keeps their state, S30/S32) and
 * only marks it off screen, so its servers detach after the background delay; the session view
 * leaves it when the session ends.
 */
export function useSessionScope(sessionId: string, monaco: MonacoApi): SessionScope | undefined {
  const { sessions } = useServices();
  const [scope, setScope] = useState<SessionScope | undefined>(() => sessions.get(sessionId));
  useEffect(() => {
    const acquired = sessions.acquire(sessionId, monaco);
    setScope(acquired);
    // On screen while mounted: leaving it starts the background delay that detaches its servers.
    const onScreen = acquired.show();
    return () => onScreen.dispose();
  }, [sessions, sessionId, monaco]);
  return scope?.sessionId === sessionId && !scope.isDisposed ? scope : undefined;
}

/** The session's connection of `language`, created in an effect (never during render); undefined without a language. */
export function useSessionConnection(scope: SessionScope | undefined, language: LanguageId | undefined): LspConnection | undefined {
  const [connection, setConnection] = useState<LspConnection | undefined>(() => (scope && language ? scope.existingConnection(language) : undefined));
  useEffect(() => {
    setConnection(scope && language && !scope.isDisposed ? scope.connection(language) : undefined);
  }, [scope, language]);
  return connection && scope && connection.sessionId === scope.sessionId && connection.language === language ? connection : undefined;
}
