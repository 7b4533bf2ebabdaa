import { useEffect, useRef } from 'react';
import { recallTabs, rememberTabs } from '../../lib/workspace/tabMemory.js';
import type { SessionWorkspace } from '../../lib/workspace/sessionWorkspace.js';

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * Open tabs and the active file of a session survive a reload: restored once when the view
 * mounts (before a deep link, which then wins the focus), then remembered on every change.
 */
export function useTabMemory(workspace: SessionWorkspace, deepLink: string | undefined): void {
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    const remembered = recallTabs(storage(), workspace.sessionId);
    const already = new Set(workspace.getSnapshot().tabs.map((t) => t.path));
    if (remembered && already.size === 0) {
      const active = deepLink ?? remembered.active ?? remembered.paths[remembered.paths.length - 1];
      // Open in order; the active one last so it ends up focused (a deep link is opened by the view).
      const others = remembered.paths.filter((p) => p !== active && p !== deepLink);
      void (async () => {
        // A file the person opens while the tabs are coming back keeps the focus: each restored
        // open focuses its own tab, so the person's choice is focused again after it.
        let chosen: string | undefined;
        for (const path of active && !deepLink ? [...others, active] : others) {
          await workspace.open(path);
          const now = workspace.getSnapshot().activePath;
          if (chosen === undefined && now !== undefined && now !== path) chosen = now;
          if (chosen !== undefined && now !== chosen) await workspace.open(chosen);
        }
      })();
    }
    // The subscription below starts after the restore was queued, so a half-restored set is saved as it grows.
  }, [workspace, deepLink]);

  useEffect(() => {
    let last = '';
    const registration = workspace.onDidChange(() => {
      const snapshot = workspace.getSnapshot();
      const paths = snapshot.tabs.map((t) => t.path);
      const value = JSON.stringify([paths, snapshot.activePath]);
      if (value === last) return;
      last = value;
      if (!restored.current) return;
      rememberTabs(storage(), workspace.sessionId, {
        paths,
        active: snapshot.activePath && paths.includes(snapshot.activePath) ? snapshot.activePath : undefined,
      });
    });
    return () => registration.dispose();
  }, [workspace]);
}
