import type { Session } from '@kandev/protocol';
import { useCallback, useEffect, useState } from 'react';
import type { TaskSummary } from '../../api/kandevApi.js';
import { useServices } from '../../services/ServicesContext.js';

export type SessionInfo = { state: 'loading' } | { state: 'error' } | { state: 'loaded'; session: Session; task?: TaskSummary };

/** The session on screen and its task (for the header's title and executor). */
export function useSessionInfo(sessionId: string): { info: SessionInfo; reload(): void; setSession(session: Session): void } {
  const { api } = useServices();
  const [info, setInfo] = useState<SessionInfo>({ state: 'loading' });
  const load = useCallback(() => {
    let live = true;
    api.getSession(sessionId).then(
      async (session) => {
        const task = await api.getTask(session.taskId).catch(() => undefined);
        if (live) setInfo({ state: 'loaded', session, task });
      },
      () => live && setInfo({ state: 'error' }),
    );
    return () => {
      live = false;
    };
  }, [api, sessionId]);
  useEffect(load, [load]);
  const setSession = useCallback((session: Session) => setInfo((prev) => (prev.state === 'loaded' ? { ...prev, session } : prev)), []);
  return { info, reload: load, setSession };
}
