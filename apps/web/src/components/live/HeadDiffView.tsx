import type { GitFileChange } from '@kandev/protocol';
import type * as Monaco from 'monaco-editor';
import { X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MonacoApi } from '../../lib/monaco/monacoApi.js';
import { looksBinary, type SessionWorkspace } from '../../lib/workspace/sessionWorkspace.js';
import type { SessionLive } from '../../services/sessionLive.js';
import { DiffEditor } from './DiffEditor.js';
import { CLOSE_DIFF_KEY } from './useEscapeClose.js';
import { GitMark } from '../files/GitMark.js';

interface HeadDiffViewProps {
  monaco: MonacoApi;
  workspace: SessionWorkspace;
  live: SessionLive;
  /** HEAD commit the view is drawn against: a new one reads HEAD again. */
  head: string | null;
  change: GitFileChange;
  /** Why the working-tree file has no model (it is binary or too large to open): no diff is drawn. */
  unreadable?: 'binary' | 'too_large';
  onClose(): void;
}

type HeadText = { state: 'loading' } | { state: 'loaded'; text: string } | { state: 'failed' };

/**
 * A changed file against HEAD in Monaco's diff editor. The right-hand side is the file's own
 * session model (its tab follows the disk, and what is typed there is a normal edit); a deleted
 * file is shown against an empty, read-only text.
 */
export function HeadDiffView({ monaco, workspace, live, head, change, unreadable, onClose }: HeadDiffViewProps) {
  const { t } = useTranslation('live');
  const [headText, setHeadText] = useState<HeadText>({ state: 'loading' });
  const newToGit = change.status === 'added' || change.status === 'untracked';
  const headPath = change.from ?? change.path;
  useEffect(() => {
    let current = true;
    if (newToGit) {
      setHeadText({ state: 'loaded', text: '' });
      return;
    }
    live.heads.get(headPath).then(
      (text) => current && setHeadText({ state: 'loaded', text: text ?? '' }),
      () => current && setHeadText({ state: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [live, headPath, newToGit, head]);

  // A deleted file has no session model: an empty read-only stand-in takes its place.
  const deleted = change.status === 'deleted';
  const [standIn, setStandIn] = useState<Monaco.editor.ITextModel | undefined>();
  useEffect(() => {
    if (!deleted) return;
    const model = monaco.editor.createModel('', undefined);
    setStandIn(model);
    return () => {
      setStandIn(undefined);
      model.dispose();
    };
  }, [monaco, deleted]);
  const modified = deleted ? standIn : workspace.modelOf(change.path);
  // Binary on either side: there are no lines to compare, and saying so beats waiting forever.
  const binary = unreadable === 'binary' || (headText.state === 'loaded' && looksBinary(headText.text));

  return (
    <section className="diff-view" data-testid="head-diff" data-path={change.path} aria-label={t('changes.diffTitle', { path: change.path })}>
      <div className="diff-view-header">
        <GitMark status={change.status} />
        <h2 className="diff-view-title">{t('changes.diffTitle', { path: change.path })}</h2>
        <button type="button" className="btn btn-sm" data-testid="head-diff-close" aria-keyshortcuts={CLOSE_DIFF_KEY} onClick={onClose}>
          <X size={14} aria-hidden="true" />
          {t('changes.closeDiff')}
        </button>
      </div>
      {binary ? (
        <p className="diff-view-note" role="status" data-testid="head-diff-binary">
          {t('changes.binaryDiff', { path: change.path })}
        </p>
      ) : unreadable === 'too_large' ? (
        <p className="diff-view-note" role="status" data-testid="head-diff-too-large">
          {t('changes.tooLargeDiff', { path: change.path })}
        </p>
      ) : headText.state === 'failed' ? (
        <p role="alert" className="banner banner-error">
          {t('changes.diffFailed', { path: headPath })}
        </p>
      ) : headText.state === 'loaded' && modified ? (
        <DiffEditor
          monaco={monaco}
          path={change.path}
          original={headText.text}
          modified={modified}
          readOnly={deleted}
          sideLabels={{ original: t('changes.headSide', { path: headPath }), modified: t('changes.workspaceSide', { path: change.path }) }}
          testId="head-diff-editor"
        />
      ) : (
        <p className="loading diff-view-note" role="status">
          {t('changes.loadingDiff', { path: headPath })}
        </p>
      )}
    </section>
  );
}
