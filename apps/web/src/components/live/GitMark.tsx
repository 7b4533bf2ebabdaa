import type { GitFileStatus } from '@kandev/protocol';
import { useTranslation } from 'react-i18next';
import './live.css';

/**
 * A changed file's git status as a coloured letter (M, A, D, U, R in the locale's letters); the
 * word itself is what assistive technology reads (the `id` lets a row add it to its name).
 */
export function GitMark({ status, id }: { status: GitFileStatus; id?: string }) {
  const { t } = useTranslation('live');
  return (
    <span
      className={`git-mark git-${status}`}
      data-testid="git-mark"
      data-status={status}
      data-letter={t(`git.letter.${status}`)}
      title={t(`git.status.${status}`)}
    >
      <span className="visually-hidden" id={id}>
        {t(`git.status.${status}`)}
      </span>
    </span>
  );
}

/** A folder holding changed files: a dot, read as "contains changes". */
export function FolderChangedMark({ id }: { id?: string }) {
  const { t } = useTranslation('live');
  return (
    <span className="git-mark git-folder" data-testid="git-folder-mark" data-letter="●" title={t('git.folderChanged')}>
      <span className="visually-hidden" id={id}>
        {t('git.folderChanged')}
      </span>
    </span>
  );
}
