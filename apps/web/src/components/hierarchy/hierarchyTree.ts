import type { HierarchyNode, HierarchyTarget } from '../../lib/lsp/editing/hierarchy.js';

/** A node's next level as loaded so far. */
export type Level = { status: 'loading' } | { status: 'done'; children: HierarchyNode[] } | { status: 'failed'; message: string };

/** One visible row of the panel's tree. */
export type HierarchyRow =
  | { kind: 'node'; key: string; node: HierarchyNode; depth: number; position: number; siblings: number; level: Level | undefined }
  | { kind: 'note'; key: string; depth: number; note: 'loading' | 'none' | 'failed'; message?: string };

/**
 * The rows to show: every root, and under each expanded node its loaded level (or a note while it
 * loads, when it is empty, or when it failed). `levels` is keyed by the node's row key.
 */
export function hierarchyRows(roots: readonly HierarchyNode[], levels: ReadonlyMap<string, Level>): HierarchyRow[] {
  const rows: HierarchyRow[] = [];
  const visit = (nodes: readonly HierarchyNode[], depth: number, parentKey: string) => {
    nodes.forEach((node, i) => {
      const key = `${parentKey}/${i}`;
      const level = levels.get(key);
      rows.push({ kind: 'node', key, node, depth, position: i + 1, siblings: nodes.length, level });
      if (!level) return;
      if (level.status === 'done') {
        if (level.children.length) visit(level.children, depth + 1, key);
        else rows.push({ kind: 'note', key: `${key}:none`, depth: depth + 1, note: 'none' });
      } else if (level.status === 'loading') {
        rows.push({ kind: 'note', key: `${key}:loading`, depth: depth + 1, note: 'loading' });
      } else {
        rows.push({ kind: 'note', key: `${key}:failed`, depth: depth + 1, note: 'failed', message: level.message });
      }
    });
  };
  visit(roots, 0, '');
  return rows;
}

/** Where a row takes the person: its first call site when it stands for calls, else its symbol. */
export function jumpTarget(node: HierarchyNode): HierarchyTarget {
  return node.sites[0] ?? node.symbol;
}

/** The last segment of a path or URI (the file a row is in). */
export function fileName(target: HierarchyTarget): string {
  const of = target.path ?? decodeURIComponent(target.uri);
  return of.slice(of.lastIndexOf('/') + 1);
}
