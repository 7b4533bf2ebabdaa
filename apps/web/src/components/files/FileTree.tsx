import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileTreeModel } from '../../lib/workspace/fileTree.js';

interface FileTreeProps {
  tree: FileTreeModel;
  activePath: string | undefined;
  onOpenFile(path: string): void;
}

/** The lazy Files tree: folders list on first expansion; the active file is marked. */
export function FileTree({ tree, activePath, onOpenFile }: FileTreeProps) {
  const { t } = useTranslation();
  useEffect(() => {
    void tree.load('');
  }, [tree]);
  return (
    <nav className="file-tree" aria-label={t('files.title')}>
      <h2 className="panel-title">{t('files.title')}</h2>
      <ul role="tree" data-testid="file-tree" aria-label={t('files.title')}>
        <FolderChildren tree={tree} folder="" depth={0} activePath={activePath} onOpenFile={onOpenFile} />
      </ul>
    </nav>
  );
}

function FolderChildren({ tree, folder, depth, activePath, onOpenFile }: FileTreeProps & { folder: string; depth: number }) {
  const { t } = useTranslation();
  const snapshot = useSyncExternalStore(tree.subscribe, tree.getSnapshot);
  const listing = snapshot.listings.get(folder);
  const indent = { paddingInlineStart: `${depth * 14 + 6}px` };
  if (!listing || listing.state === 'loading') {
    return (
      <li role="none" className="tree-info" style={indent}>
        {t('files.loading')}
      </li>
    );
  }
  if (listing.state === 'error') {
    return (
      <li role="none" className="tree-info" style={indent}>
        {t('files.loadFailed')}{' '}
        <button type="button" onClick={() => void tree.load(folder)}>
          {t('files.retry')}
        </button>
      </li>
    );
  }
  if (listing.entries.length === 0) {
    return (
      <li role="none" className="tree-info" style={indent}>
        {t('files.empty')}
      </li>
    );
  }
  return (
    <>
      {listing.entries.map((entry) => {
        const isDir = entry.type === 'directory';
        const expanded = isDir && snapshot.expanded.has(entry.path);
        const active = !isDir && entry.path === activePath;
        return (
          <li role="none" key={entry.path}>
            <button
              type="button"
              role="treeitem"
              className={`tree-node${active ? ' active' : ''}`}
              style={indent}
              data-testid="tree-node"
              data-path={entry.path}
              data-type={entry.type}
              aria-expanded={isDir ? expanded : undefined}
              aria-selected={active}
              data-active={active ? 'true' : undefined}
              onClick={() => (isDir ? void tree.toggle(entry.path) : onOpenFile(entry.path))}
            >
              <span className="tree-icon" aria-hidden="true">
                {isDir ? (expanded ? '▾' : '▸') : '·'}
              </span>
              {entry.name}
            </button>
            {expanded && (
              <ul role="group">
                <FolderChildren tree={tree} folder={entry.path} depth={depth + 1} activePath={activePath} onOpenFile={onOpenFile} />
              </ul>
            )}
          </li>
        );
      })}
    </>
  );
}
