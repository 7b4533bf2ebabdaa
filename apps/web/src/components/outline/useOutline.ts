import { useContext, useEffect, useState } from 'react';
import { ClockContext } from '../../app/clock.js';
import { useServices } from '../../services/ServicesContext.js';
import type { OutlineState } from '../../lib/lsp/editing/outlineFeed.js';
import type { SessionWorkspace } from '../../lib/workspace/sessionWorkspace.js';

export type { OutlineState } from '../../lib/lsp/editing/outlineFeed.js';

/** The outline of one file, from the window's shared feed of it (services' OutlineFeeds). */
export function useOutline(workspace: SessionWorkspace, path: string | undefined): OutlineState {
  const { outlines } = useServices();
  const clock = useContext(ClockContext);
  const [state, setState] = useState<OutlineState>({ kind: 'noFile' });
  useEffect(() => {
    if (!path) {
      setState({ kind: 'noFile' });
      return undefined;
    }
    const { feed, release } = outlines.acquire(workspace, path, clock, setState);
    setState(feed.state);
    return release;
  }, [outlines, workspace, path, clock]);
  return state;
}
