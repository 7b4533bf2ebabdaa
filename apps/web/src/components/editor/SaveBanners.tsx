import { useTranslation } from 'react-i18next';
import type { DocumentView } from '../../lib/workspace/sessionWorkspace.js';

interface SaveBannersProps {
  document: DocumentView;
  onReload(): void;
  onOverwrite(): void;
  onDismissError(): void;
}

/** 409 conflict (reload or overwrite, nothing lost) and plain save failures. */
export function SaveBanners({ document, onReload, onOverwrite, onDismissError }: SaveBannersProps) {
  const { t } = useTranslation();
  return (
    <>
      {document.conflict && (
        <div role="alert" className="banner banner-warning" data-testid="save-conflict" data-path={document.path}>
          <span>{t('save.conflict', { path: document.path })}</span>
          <button type="button" data-testid="save-conflict-reload" onClick={onReload} disabled={document.saving}>
            {t('save.reload')}
          </button>
          <button type="button" data-testid="save-conflict-overwrite" onClick={onOverwrite} disabled={document.saving}>
            {t('save.overwrite')}
          </button>
        </div>
      )}
      {document.saveFailed && (
        <div role="alert" className="banner banner-error" data-testid="save-error">
          <span>{t('save.failed', { path: document.path })}</span>
          <button type="button" onClick={onDismissError}>
            {t('save.dismiss')}
          </button>
        </div>
      )}
    </>
  );
}
