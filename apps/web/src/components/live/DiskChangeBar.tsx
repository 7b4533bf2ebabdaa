import { useTranslation } from 'react-i18next';
import type { DocumentView } from '../../lib/workspace/sessionWorkspace.js';

interface DiskChangeBarProps {
  document: DocumentView;
  comparing: boolean;
  onCompare(): void;
  onKeepMine(): void;
  onTakeTheirs(): void;
  onCloseTab(): void;
}

/**
 * The open file changed on disk under unsaved changes (Compare, Keep mine, Take theirs), or was
 * deleted (its text stays; Save recreates it). A refused save speaks through its own banner.
 */
export function DiskChangeBar({ document, comparing, onCompare, onKeepMine, onTakeTheirs, onCloseTab }: DiskChangeBarProps) {
  const { t } = useTranslation('live');
  if (document.conflict || !document.disk) return null;
  if (document.disk === 'deleted') {
    return (
      <div role="alert" className="banner banner-warning" data-testid="disk-deleted" data-path={document.path}>
        <span>{t('disk.deleted', { path: document.path })}</span>
        <button type="button" className="btn btn-sm" data-testid="disk-deleted-close" onClick={onCloseTab}>
          {t('disk.closeTab')}
        </button>
      </div>
    );
  }
  return (
    <div role="alert" className="banner banner-warning" data-testid="disk-changed" data-path={document.path}>
      <span>{t('disk.changed', { path: document.path })}</span>
      <button type="button" className="btn btn-sm" data-testid="disk-compare" aria-pressed={comparing} onClick={onCompare} disabled={document.saving}>
        {t('disk.compare')}
      </button>
      <button type="button" className="btn btn-sm" data-testid="disk-keep-mine" onClick={onKeepMine} disabled={document.saving}>
        {t('disk.keepMine')}
      </button>
      <button type="button" className="btn btn-sm" data-testid="disk-take-theirs" onClick={onTakeTheirs} disabled={document.saving}>
        {t('disk.takeTheirs')}
      </button>
    </div>
  );
}
