import * as ContextMenu from '@radix-ui/react-context-menu';
import { Copy, FilePlus, Pencil, RefreshCw, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A file or folder of the tree that an action is about. */
export interface FileSubject {
  path: string;
  directory: boolean;
}

/** Opens the dialog of an action; without a subject, New file goes to the workspace root. */
export interface FileActionAsk {
  create(subject?: FileSubject): void;
  rename(subject?: FileSubject): void;
  delete(subject?: FileSubject): void;
}

/** The Files panel's toolbar: New file, Rename and Delete of the target row, Refresh of everything. */
export function FilesToolbar({
  target,
  ask,
  refreshing,
  onRefresh,
}: {
  target: FileSubject | undefined;
  ask: FileActionAsk;
  refreshing: boolean;
  onRefresh(): void;
}) {
  const { t } = useTranslation();
  return (
    <div className="file-tree-toolbar" role="toolbar" aria-label={t('files.action.toolbar')}>
      <button
        type="button"
        className="icon-button"
        data-testid="file-new"
        aria-label={t('files.action.newFile')}
        title={t('files.action.newFile')}
        onClick={() => ask.create(target)}
      >
        <FilePlus size={15} aria-hidden="true" />
      </button>
      <button
        type="button"
        className="icon-button"
        data-testid="file-rename"
        aria-label={t('files.action.renameTarget', { name: target?.path ?? '' })}
        title={t('files.action.renameHint')}
        disabled={!target}
        onClick={() => ask.rename(target)}
      >
        <Pencil size={15} aria-hidden="true" />
      </button>
      <button
        type="button"
        className="icon-button"
        data-testid="file-delete"
        aria-label={t('files.action.deleteTarget', { name: target?.path ?? '' })}
        title={t('files.action.deleteHint')}
        disabled={!target}
        onClick={() => ask.delete(target)}
      >
        <Trash2 size={15} aria-hidden="true" />
      </button>
      <button
        type="button"
        className="icon-button"
        data-testid="file-refresh"
        aria-label={t('files.action.refresh')}
        title={t('files.action.refreshHint')}
        disabled={refreshing}
        onClick={onRefresh}
      >
        <RefreshCw size={15} aria-hidden="true" />
      </button>
    </div>
  );
}

/**
 * A context menu on the tree (right-click, or a long press on touch): the actions of the row it was
 * opened on (`subject`, set by the tree's contextmenu handler), or only New file below the rows.
 */
export function FileContextMenu({ subject, ask, children }: { subject: FileSubject | undefined; ask: FileActionAsk; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <ContextMenu.Root>
      <ContextMenu.Trigger asChild>{children}</ContextMenu.Trigger>
      <ContextMenu.Portal>
        <ContextMenu.Content className="menu" data-testid="file-context-menu" collisionPadding={8}>
          <ContextMenu.Item className="menu-item" data-testid="file-menu-new" onSelect={() => ask.create(subject)}>
            <FilePlus size={14} aria-hidden="true" className="menu-item-icon" />
            {t('files.action.newFile')}
          </ContextMenu.Item>
          {subject && (
            <>
              <ContextMenu.Item className="menu-item" data-testid="file-menu-rename" onSelect={() => ask.rename(subject)}>
                <Pencil size={14} aria-hidden="true" className="menu-item-icon" />
                {t('files.action.renameItem')}
              </ContextMenu.Item>
              <ContextMenu.Item className="menu-item menu-item-danger" data-testid="file-menu-delete" onSelect={() => ask.delete(subject)}>
                <Trash2 size={14} aria-hidden="true" className="menu-item-icon" />
                {t('files.action.deleteItem')}
              </ContextMenu.Item>
              <ContextMenu.Separator className="menu-separator" />
              <ContextMenu.Item
                className="menu-item"
                data-testid="file-menu-copy-path"
                onSelect={() => void navigator.clipboard?.writeText(subject.path).catch(() => undefined)}
              >
                <Copy size={14} aria-hidden="true" className="menu-item-icon" />
                {t('files.action.copyPath')}
              </ContextMenu.Item>
            </>
          )}
        </ContextMenu.Content>
      </ContextMenu.Portal>
    </ContextMenu.Root>
  );
}
