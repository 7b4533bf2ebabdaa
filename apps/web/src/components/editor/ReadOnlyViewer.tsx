import { useEffect, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_OPEN_FILE_BYTES } from '@kandev/protocol';
import { ApiRequestError } from '../../api/kandevApi.js';
import { mebibytes } from '../../lib/workspace/largeFile.js';
import { useServices } from '../../services/ServicesContext.js';
import { viewerRows, type ViewerRow } from '../../lib/viewer/viewerRows.js';
import { VirtualList } from '../ui/VirtualList.js';

/**
 * Every row is this height (no wrapping: a row scrolls sideways; a very long line is cut into rows
 * of a bounded length, see viewerRows), so nothing is measured.
 */
const LINE_PX = 18;

type Load = { state: 'loading' } | { state: 'error'; tooLarge: boolean } | { state: 'loaded'; rows: ViewerRow[]; lineCount: number };

/**
 * A plain, read-only text view with line numbers (phones). Only the lines in view are drawn, so a
 * file of 40,000 lines costs a screenful of rows, inside a box that scrolls on its own.
 */
export function ReadOnlyViewer({ sessionId, path, titleRef }: { sessionId: string; path: string; titleRef?: Ref<HTMLHeadingElement> }) {
  const { api } = useServices();
  const { t } = useTranslation();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    setLoad({ state: 'loading' });
    api.readFile(sessionId, path).then(
      (file) => {
        if (!live) return;
        const rows = viewerRows(file.content);
        setLoad({ state: 'loaded', rows, lineCount: rows.at(-1)?.line ?? 0 });
      },
      (err: unknown) => live && setLoad({ state: 'error', tooLarge: err instanceof ApiRequestError && err.status === 413 }),
    );
    return () => {
      live = false;
    };
  }, [api, sessionId, path]);
  const gutter = load.state === 'loaded' ? `calc(${String(load.lineCount).length}ch + 20px)` : undefined;
  return (
    <section className="readonly-viewer" data-testid="editor" data-path={path} data-readonly="true">
      {/* Focusable from script only: the phone gives it the focus when the file opens. */}
      <h2 className="panel-title readonly-path" ref={titleRef} tabIndex={-1}>
        {path}
      </h2>
      {load.state === 'loading' && <p>{t('editor.opening', { path })}</p>}
      {load.state === 'error' && (
        <p role="alert" data-testid={load.tooLarge ? 'file-too-large' : undefined}>
          {load.tooLarge ? t('editor.tooLarge', { path, limit: mebibytes(MAX_OPEN_FILE_BYTES).replace(/\.0$/, '') }) : t('editor.openFailed', { path })}
        </p>
      )}
      {load.state === 'loaded' && (
        // The gutter fits the largest line number, so it keeps its width whichever lines are drawn.
        <VirtualList
          className="readonly-text"
          testId="readonly-lines"
          scrollerLabel={path}
          count={load.rows.length}
          estimateRowPx={LINE_PX}
          fixedRows
          rowKey={String}
          renderRow={(i) => {
            const row = load.rows[i] as ViewerRow;
            return (
              <div className="readonly-line" data-testid="readonly-line" data-line={row.line} data-continued={row.continued || undefined}>
                <span className="line-number" aria-hidden="true" style={{ minWidth: gutter }}>
                  {row.continued ? '' : row.line}
                </span>
                <code>{row.text}</code>
              </div>
            );
          }}
        />
      )}
    </section>
  );
}
