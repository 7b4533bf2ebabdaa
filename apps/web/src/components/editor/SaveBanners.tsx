import { useTranslation } from 'react-i18next';
import type { DocumentView } from '../../lib/workspace/sessionWorkspace.js';
import { mebibytes } from '../../lib/workspace/largeFile.js';

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
          <span data-testid={document.saveTooLarge === undefined ? undefined : 'save-too-large'}>
            {document.saveTooLarge === undefined
              ? t('save.failed', { path: document.path })
              : t('save.tooLarge', { path: document.path, limit: mebibytes(document.saveTooLarge).replace(/\.0$/, '') })}
          </span>
          <button type="button" onClick={onDismissError}>
            {t('save.dismiss')}
          </button>
        </div>
      )}
    </>
  );
}
