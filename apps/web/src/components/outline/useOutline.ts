import { useContext, useEffect, useState } from 'react';
import type { Clock } from '@kandev/kit';
import { ClockContext } from '../../app/clock.js';
import { useServices } from '../../services/ServicesContext.js';
import type { EditingRegistry } from '../../lib/lsp/editing/registry.js';
import type { SessionWorkspace } from '../../lib/workspace/sessionWorkspace.js';
import { OutlineFeed, type OutlineState } from './outlineFeed.js';

export type { OutlineState } from './outlineFeed.js';

const feeds = new Map<string, { feed: OutlineFeed; workspace: SessionWorkspace }>();

function acquire(
  editing: EditingRegistry,
  workspace: SessionWorkspace,
  path: string,
  clock: Clock,
  listener: (state: OutlineState) => void,
): { feed: OutlineFeed; release(): void } {
  const key = `${workspace.sessionId}\u0000${path}`;
  let entry = feeds.get(key);
  if (!entry || entry.workspace !== workspace) {
    entry?.feed.dispose();
    entry = { feed: new OutlineFeed(editing, workspace, path, clock), workspace };
    feeds.set(key, entry);
  }
  const { feed } = entry;
  feed.listeners.add(listener);
  return {
    feed,
    release() {
      feed.listeners.delete(listener);
      if (feed.listeners.size === 0 && feeds.get(key)?.feed === feed) {
        feeds.delete(key);
        feed.dispose();
      }
    },
  };
}

export function useOutline(workspace: SessionWorkspace, path: string | undefined): OutlineState {
  const { editing } = useServices();
  const clock = useContext(ClockContext);
  const [state, setState] = useState<OutlineState>({ kind: 'noFile' });
  useEffect(() => {
    if (!path) {
      setState({ kind: 'noFile' });
      return undefined;
    }
    const { feed, release } = acquire(editing, workspace, path, clock, setState);
    setState(feed.state);
    return release;
  }, [editing, workspace, path, clock]);
  return state;
}
