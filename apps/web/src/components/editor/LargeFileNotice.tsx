import { useTranslation } from 'react-i18next';
import { mebibytes } from '../../lib/workspace/largeFile.js';
import type { SessionWorkspace } from '../../lib/workspace/sessionWorkspace.js';

/** One line above a file opened in large-file mode: what is off, and why (its size or its lines). */
export function LargeFileNotice({ workspace, path }: { workspace: SessionWorkspace; path: string }) {
  const { t } = useTranslation();
  const large = workspace.largeFile(path);
  if (!large) return null;
  return (
    <p className="large-file-notice" role="status" data-testid="large-file-notice" data-path={path} data-reason={large.reason}>
      {large.reason === 'size'
        ? t('editor.largeFileSize', { size: mebibytes(large.size) })
        : t('editor.largeFileLines', { lines: large.lines.toLocaleString() })}
    </p>
  );
}
