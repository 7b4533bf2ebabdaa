import type { FileTreeSnapshot } from './fileTree.js';

/** One visible line of the Files tree (a file or a folder); placeholders are not rows. */
export interface TreeRow {
  path: string;
  name: string;
  type: 'file' | 'directory';
  depth: number;
  /** '' for entries at the workspace root. */
  parent: string;
  expanded: boolean;
  /** 1-based position among its siblings and their count, for aria-posinset / aria-setsize. */
  position: number;
  siblings: number;
}

/** The rows a person sees, in order: loaded folders' entries, children of expanded folders under them. */
export function visibleTreeRows(snapshot: FileTreeSnapshot): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (folder: string, depth: number) => {
    const listing = snapshot.listings.get(folder);
    if (listing?.state !== 'loaded') return;
    listing.entries.forEach((entry, index) => {
      const expanded = entry.type === 'directory' && snapshot.expanded.has(entry.path);
      rows.push({
        path: entry.path,
        name: entry.name,
        type: entry.type,
        depth,
        parent: folder,
        expanded,
        position: index + 1,
        siblings: listing.entries.length,
      });
      if (expanded) walk(entry.path, depth + 1);
    });
  };
  walk('', 0);
  return rows;
}

export type TreeAction =
  { kind: 'focus'; path: string } | { kind: 'expand'; path: string } | { kind: 'collapse'; path: string } | { kind: 'open'; path: string } | { kind: 'none' };

/**
 * What a key does in the tree (WAI-ARIA tree pattern): Up/Down move, Right expands a closed folder
 * or enters an open one, Left collapses an open folder or goes to the parent, Home/End jump,
 * Enter/Space open a file or toggle a folder. Other printable keys are type-ahead (see typeAhead).
 */
export function treeKeyAction(rows: readonly TreeRow[], focused: string | undefined, key: string): TreeAction {
  if (rows.length === 0) return { kind: 'none' };
  const index = Math.max(
    0,
    rows.findIndex((r) => r.path === focused),
  );
  const row = rows[index] as TreeRow;
  const at = (i: number): TreeAction => ({ kind: 'focus', path: (rows[Math.min(rows.length - 1, Math.max(0, i))] as TreeRow).path });
  switch (key) {
    case 'ArrowDown':
      return at(index + 1);
    case 'ArrowUp':
      return at(index - 1);
    case 'Home':
      return at(0);
    case 'End':
      return at(rows.length - 1);
    case 'ArrowRight':
      if (row.type !== 'directory') return { kind: 'none' };
      if (!row.expanded) return { kind: 'expand', path: row.path };
      return rows[index + 1]?.parent === row.path ? at(index + 1) : { kind: 'none' };
    case 'ArrowLeft':
      if (row.type === 'directory' && row.expanded) return { kind: 'collapse', path: row.path };
      return row.parent ? { kind: 'focus', path: row.parent } : { kind: 'none' };
    case 'Enter':
    case ' ':
      if (row.type === 'file') return { kind: 'open', path: row.path };
      return row.expanded ? { kind: 'collapse', path: row.path } : { kind: 'expand', path: row.path };
    default:
      return { kind: 'none' };
  }
}

/** Type-ahead: the next row after the focused one whose name starts with the typed prefix (wrapping). */
export function typeAhead(rows: readonly TreeRow[], focused: string | undefined, prefix: string): string | undefined {
  if (!prefix) return undefined;
  const lower = prefix.toLowerCase();
  const start = rows.findIndex((r) => r.path === focused);
  // A single repeated letter cycles through matches; a longer prefix may stay on the current row.
  const offset = prefix.length === 1 ? 1 : 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[(start + offset + i + rows.length) % rows.length] as TreeRow;
    if (row.name.toLowerCase().startsWith(lower)) return row.path;
  }
  return undefined;
}
