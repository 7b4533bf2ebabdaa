import { useEffect, useState } from 'react';
import { useSnapshot } from '../../app/useSnapshot.js';
import type { LiveSnapshot } from '../../lib/live/liveState.js';
import { useServices } from '../../services/ServicesContext.js';
import type { SessionLive } from '../../services/sessionLive.js';

/** The session's live workspace, held while the component is mounted (acquired in an effect: undefined at first). */
export function useSessionLive(sessionId: string): SessionLive | undefined {
  const { live } = useServices();
  const [held, setHeld] = useState<{ sessionId: string; live: SessionLive } | undefined>();
  useEffect(() => {
    const acquired = live.acquire(sessionId);
    setHeld({ sessionId, live: acquired.live });
    return () => acquired.dispose();
  }, [live, sessionId]);
  return held?.sessionId === sessionId ? held.live : undefined;
}

const NOTHING: LiveSnapshot = { git: undefined, changes: new Map(), changedFolders: new Set(), watch: undefined, stream: 'stopped' };
const never = () => ({ dispose: () => undefined });

/** What the live workspace says now (git state, watch mode, stream), re-rendering on change. */
export function useLiveSnapshot(live: SessionLive | undefined): LiveSnapshot {
  return useSnapshot(live ? live.state.onDidChange : never, live ? live.state.getSnapshot : () => NOTHING);
}
