import { useEffect, useState } from 'react';
import type { GitFileChange } from '@kandev/protocol';
import type { LiveSnapshot } from '../../lib/live/liveState.js';
import type { DocumentView, SessionWorkspace } from '../../lib/workspace/sessionWorkspace.js';
import { useEscapeClose } from '../live/useEscapeClose.js';

/** A diff shown in place of the editor; `at` is the active path it belongs to (another one closes it). */
type ShownDiff = { kind: 'head'; change: GitFileChange; at: string | undefined } | { kind: 'disk'; path: string; at: string };

export interface DiffView {
  /** A diff (against HEAD or against the disk) covers the editor. */
  shown: boolean;
  /** The change a HEAD diff shows, as the live state has it now. */
  headChange: GitFileChange | undefined;
  /** The active file is being compared with its changed copy on disk. */
  comparing: boolean;
  /** A row of the Changes panel was picked: its file opens under its HEAD diff. */
  openChange(change: GitFileChange): void;
  /** Compare (or stop comparing) the active file with the disk. */
  toggleCompare(path: string): void;
  close(): void;
}

/**
 * Which diff covers the session's editor: one against HEAD from the Changes panel, or one against
 * the disk from the disk-change bar. It closes with Escape, when another file becomes active, and
 * (a disk comparison) when the disk change it was about is resolved.
 */
export function useDiffView(workspace: SessionWorkspace, activePath: string | undefined, active: DocumentView | undefined, live: LiveSnapshot): DiffView {
  const [diff, setDiff] = useState<ShownDiff | undefined>();
  useEffect(() => {
    if (diff && diff.at !== activePath) setDiff(undefined);
  }, [diff, activePath]);
  const openChange = (change: GitFileChange) => {
    if (change.status === 'deleted') {
      setDiff({ kind: 'head', change, at: activePath });
      return;
    }
    setDiff({ kind: 'head', change, at: change.path });
    void workspace.open(change.path);
  };
  const headChange = diff?.kind === 'head' ? (live.changes.get(diff.change.path) ?? diff.change) : undefined;
  const comparing = diff?.kind === 'disk' && active !== undefined && diff.path === active.path;
  // Escape closes a diff; focus goes back to what opened it (its row in Changes, or Compare).
  useEscapeClose(
    diff !== undefined,
    () => setDiff(undefined),
    () => {
      const opener = diff?.kind === 'head' ? `[data-testid="change-row"][data-path="${CSS.escape(diff.change.path)}"]` : '[data-testid="disk-compare"]';
      return document.querySelector<HTMLElement>(opener);
    },
  );
  useEffect(() => {
    // The comparison ends with the disk change it was about (kept, taken, saved).
    if (comparing && active?.disk !== 'changed') setDiff(undefined);
  }, [comparing, active?.disk]);
  return {
    shown: diff !== undefined,
    headChange,
    comparing,
    openChange,
    toggleCompare: (path) => setDiff(comparing ? undefined : { kind: 'disk', path, at: path }),
    close: () => setDiff(undefined),
  };
}
