import type { GitFileChange } from '@kandev/protocol';
import { useEffect, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/kandevApi.js';
import { looksBinary } from '../../lib/workspace/binaryFile.js';
import { diffRows, type DiffRow } from '../../lib/viewer/diffRows.js';
import { useServices } from '../../services/ServicesContext.js';
import type { SessionLive } from '../../services/sessionLive.js';
import { GitMark } from '../files/GitMark.js';
import { VirtualList } from '../ui/VirtualList.js';

const LINE_PX = 18;

type Load =
  | { state: 'loading' }
  | { state: 'failed' }
  | { state: 'too_large' }
  | { state: 'binary' }
  | { state: 'too_long' }
  | { state: 'loaded'; rows: DiffRow[]; digits: number };

const SIGN: Record<DiffRow['kind'], string> = { same: ' ', added: '+', removed: '−' };

/**
 * A changed file against HEAD on a phone: a plain, read-only unified diff (no Monaco, no language
 * server), each line marked by a sign and a word for screen readers as well as by its color.
 * `revision` changes when the file changed on disk; HEAD is read again when `head` moves.
 */
export function PhoneDiffViewer({
  sessionId,
  live,
  change,
  head,
  revision,
  titleRef,
}: {
  sessionId: string;
  live: SessionLive;
  change: GitFileChange;
  head: string | null;
  revision: number;
  titleRef?: Ref<HTMLHeadingElement>;
}) {
  const { t } = useTranslation('live');
  const { api } = useServices();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const headPath = change.from ?? change.path;
  const newToGit = change.status === 'added' || change.status === 'untracked';
  const deleted = change.status === 'deleted';
  useEffect(() => {
    let current = true;
    setLoad({ state: 'loading' });
    const headText = newToGit ? Promise.resolve('') : live.heads.get(headPath).then((text) => text ?? '');
    const diskText = deleted ? Promise.resolve('') : api.readFile(sessionId, change.path).then((file) => file.content);
    Promise.all([headText, diskText]).then(
      ([before, after]) => {
        if (!current) return;
        if (looksBinary(before) || looksBinary(after)) return setLoad({ state: 'binary' });
        const rows = diffRows(before, after);
        if (!rows) return setLoad({ state: 'too_long' });
        const last = rows.reduce((n, r) => Math.max(n, r.headLine ?? 0, r.line ?? 0), 0);
        setLoad({ state: 'loaded', rows, digits: String(last).length });
      },
      (err: unknown) => current && setLoad({ state: err instanceof ApiRequestError && err.status === 413 ? 'too_large' : 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [api, live, sessionId, change.path, headPath, newToGit, deleted, head, revision]);
  const title = t('changes.diffTitle', { path: change.path });
  return (
    <section className="readonly-viewer phone-diff" data-testid="phone-diff" data-path={change.path} data-state={load.state}>
      <h2 className="panel-title readonly-path phone-diff-title" ref={titleRef} tabIndex={-1}>
        <GitMark status={change.status} />
        {title}
      </h2>
      {load.state === 'loading' && <p className="phone-diff-note">{t('changes.loadingDiff', { path: headPath })}</p>}
      {load.state === 'failed' && (
        <p className="phone-diff-note" role="alert">
          {t('changes.diffFailed', { path: headPath })}
        </p>
      )}
      {load.state === 'binary' && <p className="phone-diff-note">{t('changes.binaryDiff', { path: change.path })}</p>}
      {load.state === 'too_large' && <p className="phone-diff-note">{t('changes.tooLargeDiff', { path: change.path })}</p>}
      {load.state === 'too_long' && <p className="phone-diff-note">{t('changes.diffTooLong', { path: change.path })}</p>}
      {load.state === 'loaded' && (
        <VirtualList
          className="readonly-text"
          testId="phone-diff-lines"
          scrollerLabel={title}
          count={load.rows.length}
          estimateRowPx={LINE_PX}
          fixedRows
          rowKey={String}
          renderRow={(i) => {
            const row = load.rows[i] as DiffRow;
            const width = { minWidth: `calc(${load.digits}ch + 16px)` };
            return (
              <div className={`readonly-line diff-line diff-line-${row.kind}`} data-testid="phone-diff-line" data-kind={row.kind}>
                <span className="line-number" aria-hidden="true" style={width}>
                  {row.headLine ?? ''}
                </span>
                <span className="line-number" aria-hidden="true" style={width}>
                  {row.line ?? ''}
                </span>
                <span className="diff-sign" aria-hidden="true">
                  {SIGN[row.kind]}
                </span>
                {row.kind !== 'same' && <span className="visually-hidden">{t(`changes.line.${row.kind}`)}</span>}
                <code>{row.text}</code>
              </div>
            );
          }}
        />
      )}
    </section>
  );
}
