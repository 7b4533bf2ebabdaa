import { ChevronRight } from 'lucide-react';
import { Fragment, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileTreeModel } from '../../lib/workspace/fileTree.js';
import { treeKeyAction, typeAhead, visibleTreeRows } from '../../lib/workspace/treeRows.js';
import { FileIcon, FolderIcon } from './FileIcon.js';
import { useSnapshot } from '../../app/useSnapshot.js';
import type { ApplyEditResult } from '../../lib/lsp/edits/applyResult.js';
import { parentFolder, type FileAction } from '../../lib/workspace/fileActions.js';
import { FileActionDialogs, type FileDialogRequest } from './FileActionDialogs.js';
import { FileContextMenu, FilesToolbar, type FileActionAsk, type FileSubject } from './FileActionControls.js';
import type { GitFileChange } from '@kandev/protocol';
import { FolderChangedMark, GitMark } from '../live/GitMark.js';

interface FileTreeProps {
  tree: FileTreeModel;
  activePath: string | undefined;
  onOpenFile(path: string): void;
  /**
   * New file, rename and delete (desktop and tablet editors; the phone viewer is read-only), and
   * Refresh: catch up with changes others made on disk.
   */
  fileActions?: { run(action: FileAction): Promise<ApplyEditResult>; refresh(): Promise<void> };
  /** What changed against HEAD (a git workspace): rows are marked with their status. */
  git?: { changes: ReadonlyMap<string, GitFileChange>; changedFolders: ReadonlySet<string> };
}

const TYPE_AHEAD_RESET_MS = 700;

/**
 * The lazy Files tree as a WAI-ARIA tree: one tab stop (roving tabindex), arrows, Home/End,
 * Enter/Space, type-ahead; folders list on first expansion; the active file is marked selected.
 */
export function FileTree({ tree, activePath, onOpenFile, fileActions, git }: FileTreeProps) {
  const { t } = useTranslation();
  const snapshot = useSnapshot(tree.onDidChange, tree.getSnapshot);
  const rows = useMemo(() => visibleTreeRows(snapshot), [snapshot]);
  const [focused, setFocused] = useState<string | undefined>();
  const typed = useRef({ text: '', at: 0 });
  const list = useRef<HTMLUListElement>(null);
  const idPrefix = useId();
  const [dialog, setDialog] = useState<FileDialogRequest | undefined>();
  const [refreshing, setRefreshing] = useState(false);
  const refresh = () => {
    if (!fileActions) return;
    setRefreshing(true);
    void fileActions.refresh().finally(() => setRefreshing(false));
  };

  useEffect(() => {
    void tree.load('');
  }, [tree]);

  // The one tab stop: the focused row if still visible, else the active file, else the first row.
  const tabStop = rows.some((r) => r.path === focused) ? focused : rows.some((r) => r.path === activePath) ? activePath : rows[0]?.path;

  // What the toolbar and F2/Delete act on: the row last focused while it is still shown, else the active file.
  const targetRow = rows.find((r) => r.path === focused) ?? rows.find((r) => r.path === activePath);
  const target: FileSubject | undefined = targetRow
    ? { path: targetRow.path, directory: targetRow.type === 'directory' }
    : activePath
      ? { path: activePath, directory: false }
      : undefined;
  const siblingsOf = (folder: string): string[] | undefined => {
    const listing = snapshot.listings.get(folder);
    return listing?.state === 'loaded' ? listing.entries.map((e) => e.name) : undefined;
  };
  const ask: FileActionAsk = {
    create: (subject) => {
      const folder = subject ? (subject.directory ? subject.path : parentFolder(subject.path)) : '';
      setDialog({ kind: 'create', folder, siblings: siblingsOf(folder) });
    },
    rename: (subject) => {
      if (subject) setDialog({ kind: 'rename', ...subject, siblings: siblingsOf(parentFolder(subject.path)) });
    },
    delete: (subject) => {
      if (subject) setDialog({ kind: 'delete', ...subject });
    },
  };
  const subjectAt = (path: string): FileSubject => ({ path, directory: rows.find((r) => r.path === path)?.type === 'directory' });
  /** The row a context menu was opened on (undefined: the empty area below the rows). */
  const [menuSubject, setMenuSubject] = useState<FileSubject | undefined>();

  const focusRow = (path: string) => {
    setFocused(path);
    const el = list.current?.querySelector<HTMLElement>(`[role="treeitem"][data-path="${CSS.escape(path)}"]`);
    el?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    // A key a window shortcut already took (`?` opens the shortcuts) must not also type ahead here:
    // it would linger in the type-ahead buffer and spoil the next letter.
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const current = (e.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]')?.dataset.path ?? tabStop;
    if (fileActions && current && (e.key === 'F2' || e.key === 'Delete')) {
      // As in VS Code's explorer: F2 renames the focused row, Delete deletes it (after confirming).
      e.preventDefault();
      if (e.key === 'F2') ask.rename(subjectAt(current));
      else ask.delete(subjectAt(current));
      return;
    }
    if (fileActions && current && (e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10'))) {
      // The menu key (or Shift+F10) opens the row's context menu, as a right-click would: Radix's
      // menu opens on the contextmenu event, placed under the row's name.
      e.preventDefault();
      const row = list.current?.querySelector<HTMLElement>(`[role="treeitem"][data-path="${CSS.escape(current)}"] .tree-row`);
      const box = row?.getBoundingClientRect();
      if (row && box)
        row.dispatchEvent(new globalThis.MouseEvent('contextmenu', { bubbles: true, cancelable: true, clientX: box.left + 24, clientY: box.bottom }));
      return;
    }
    const action = treeKeyAction(rows, current, e.key);
    if (action.kind === 'none') {
      if (e.key.length === 1 && e.key !== ' ') {
        const now = e.timeStamp;
        typed.current = { text: now - typed.current.at > TYPE_AHEAD_RESET_MS ? e.key : typed.current.text + e.key, at: now };
        const match = typeAhead(rows, current, typed.current.text);
        if (match) {
          e.preventDefault();
          focusRow(match);
        }
      }
      return;
    }
    e.preventDefault();
    if (action.kind === 'focus') focusRow(action.path);
    else if (action.kind === 'open') onOpenFile(action.path);
    else if (action.kind === 'expand' || action.kind === 'collapse') void tree.toggle(action.path);
  };

  const onClick = (e: MouseEvent<HTMLUListElement>) => {
    const item = (e.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]');
    const path = item?.dataset.path;
    if (!item || !path || (e.target as HTMLElement).closest('.tree-row') === null) return;
    setFocused(path);
    if (item.dataset.type === 'directory') void tree.toggle(path);
    else onOpenFile(path);
  };

  const byParent = useMemo(() => {
    const map = new Map<string, typeof rows>();
    for (const row of rows) map.set(row.parent, [...(map.get(row.parent) ?? []), row]);
    return map;
  }, [rows]);

  const renderFolder = (folder: string, depth: number) => {
    const listing = snapshot.listings.get(folder);
    const indent = { paddingInlineStart: `${depth * 12 + 26}px` };
    if (!listing || listing.state === 'loading') {
      return (
        <li role="none" className="tree-info" style={indent}>
          {t('files.loading')}
        </li>
      );
    }
    if (listing.state === 'error') {
      return (
        <li role="none" className="tree-info tree-info-error" style={indent}>
          {t('files.loadFailed')}{' '}
          <button type="button" className="btn btn-sm" onClick={() => void tree.load(folder)}>
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
    return (byParent.get(folder) ?? []).map((row) => {
      const labelId = `${idPrefix}-${rows.indexOf(row)}`;
      const isDir = row.type === 'directory';
      const active = !isDir && row.path === activePath;
      const gitStatus = isDir ? undefined : git?.changes.get(row.path)?.status;
      const folderChanged = isDir && git?.changedFolders.has(row.path) === true;
      const markId = `${labelId}-git`;
      // The row is the treeitem (its name is just the file name); an expanded folder's children
      // follow it in a role=group, as VS Code's explorer keeps rows flat with aria-level.
      return (
        <Fragment key={row.path}>
          <li
            role="treeitem"
            className="tree-item"
            data-testid="tree-node"
            data-path={row.path}
            data-type={row.type}
            aria-level={row.depth + 1}
            aria-setsize={row.siblings}
            aria-posinset={row.position}
            aria-expanded={isDir ? row.expanded : undefined}
            aria-selected={active}
            aria-labelledby={gitStatus || folderChanged ? `${labelId} ${markId}` : labelId}
            data-git={gitStatus}
            data-active={active ? 'true' : undefined}
            tabIndex={row.path === tabStop ? 0 : -1}
            onFocus={(e) => {
              if (e.target === e.currentTarget) setFocused(row.path);
            }}
          >
            <div
              className={`tree-row${active ? ' active' : ''}${gitStatus ? ` git-${gitStatus}` : ''}`}
              style={{ paddingInlineStart: `${depth * 12 + 6}px` }}
              title={row.path}
            >
              <span className={`tree-chevron${row.expanded ? ' open' : ''}`} aria-hidden="true">
                {isDir && <ChevronRight size={14} />}
              </span>
              {isDir ? <FolderIcon open={row.expanded} /> : <FileIcon name={row.name} />}
              <span className="tree-name" id={labelId}>
                {row.name}
              </span>
              {gitStatus && <GitMark status={gitStatus} id={markId} />}
              {folderChanged && <FolderChangedMark id={markId} />}
            </div>
          </li>
          {row.expanded && (
            <li role="none">
              <ul role="group" aria-labelledby={labelId}>
                {renderFolder(row.path, depth + 1)}
              </ul>
            </li>
          )}
        </Fragment>
      );
    });
  };

  const onContextMenu = (e: MouseEvent<HTMLUListElement>) => {
    const path = (e.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]')?.dataset.path;
    setMenuSubject(path ? subjectAt(path) : undefined);
    if (path) setFocused(path);
  };
  const treeList = (
    <ul
      role="tree"
      ref={list}
      data-testid="file-tree"
      aria-label={t('files.title')}
      onKeyDown={onKeyDown}
      onClick={onClick}
      onContextMenu={fileActions ? onContextMenu : undefined}
    >
      {renderFolder('', 0)}
    </ul>
  );

  return (
    <nav className="file-tree" aria-label={t('files.title')}>
      <div className="file-tree-header">
        <h2 className="panel-title">{t('files.title')}</h2>
        {fileActions && <FilesToolbar target={target} ask={ask} refreshing={refreshing} onRefresh={refresh} />}
      </div>
      {fileActions ? (
        <FileContextMenu subject={menuSubject} ask={ask}>
          {treeList}
        </FileContextMenu>
      ) : (
        treeList
      )}
      {fileActions && <FileActionDialogs request={dialog} onClose={() => setDialog(undefined)} run={(action) => fileActions.run(action)} />}
    </nav>
  );
}
