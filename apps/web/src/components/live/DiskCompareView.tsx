import { X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MonacoApi } from '../../lib/monaco/monacoApi.js';
import type { SessionWorkspace } from '../../lib/workspace/sessionWorkspace.js';
import { useServices } from '../../services/ServicesContext.js';
import { DiffEditor } from './DiffEditor.js';
import { CLOSE_DIFF_KEY } from './useEscapeClose.js';

interface DiskCompareViewProps {
  monaco: MonacoApi;
  workspace: SessionWorkspace;
  path: string;
  /** The disk version the bar is about: a newer one is read again. */
  diskVersion: string | undefined;
  onClose(): void;
}

type DiskText = { state: 'loading' } | { state: 'loaded'; text: string } | { state: 'failed' };

/** Compare: the file on disk (left, read-only) against the person's unsaved text (right, their own model, editable). */
export function DiskCompareView({ monaco, workspace, path, diskVersion, onClose }: DiskCompareViewProps) {
  const { t } = useTranslation('live');
  const { api } = useServices();
  const [disk, setDisk] = useState<DiskText>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    api.readFile(workspace.sessionId, path).then(
      (file) => current && setDisk({ state: 'loaded', text: file.content }),
      () => current && setDisk({ state: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [api, workspace, path, diskVersion]);
  const mine = workspace.modelOf(path);
  return (
    <section className="diff-view" data-testid="disk-compare" data-path={path} aria-label={t('disk.compareTitle', { path })}>
      <div className="diff-view-header">
        <h2 className="diff-view-title">{t('disk.compareTitle', { path })}</h2>
        <button type="button" className="btn btn-sm" data-testid="disk-compare-close" aria-keyshortcuts={CLOSE_DIFF_KEY} onClick={onClose}>
          <X size={14} aria-hidden="true" />
          {t('disk.closeCompare')}
        </button>
      </div>
      {disk.state === 'failed' ? (
        <p role="alert" className="banner banner-error">
          {t('disk.compareFailed', { path })}
        </p>
      ) : disk.state === 'loaded' && mine ? (
        <DiffEditor
          monaco={monaco}
          path={path}
          original={disk.text}
          modified={mine}
          sideLabels={{ original: t('disk.diskSide', { path }), modified: t('disk.yourSide', { path }) }}
          testId="disk-compare-editor"
        />
      ) : (
        <p className="loading diff-view-note" role="status">
          {t('disk.loadingCompare', { path })}
        </p>
      )}
    </section>
  );
}
