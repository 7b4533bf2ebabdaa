/**
 * The root of a process tree to reap. Its own module so reapTree.ts (the portable reaper) and
 * reapWindows.ts (the Windows one it delegates to) both use it without importing each other back.
 */
export interface TreeRoot {
  pid: number;
  /** The tree's TREE_MARKER_VARIABLE value; absent: the group and parent links only. */
  marker?: string;
  /** True once Node has reaped the root: from then on its pid may belong to a stranger. */
  hasExited(): boolean;
  /** Settles once the root has exited. */
  exited: Promise<unknown>;
}
