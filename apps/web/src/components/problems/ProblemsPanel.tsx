import { ChevronDown } from 'lucide-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Problem, ProblemGroup, ProblemsView } from '../../lib/workspace/problems.js';
import { VirtualList } from '../ui/VirtualList.js';
import { FileIcon } from '../files/FileIcon.js';
import { SeverityIcon } from './SeverityIcon.js';

interface ProblemsPanelProps {
  view: ProblemsView;
  open: boolean;
  onToggle(): void;
  onReveal(problem: Problem): void;
}

/** The bottom panel listing the session's diagnostics by file; a click reveals the range. */
export function ProblemsPanel({ view, open, onToggle, onReveal }: ProblemsPanelProps) {
  const { t } = useTranslation('workbench');
  const rows = useMemo(() => problemRows(view), [view]);
  return (
    <section className={`problems-panel${open ? ' open' : ''}`} data-testid="problems-panel" data-total={view.total} aria-labelledby="problems-title">
      <div className="panel-header">
        <button type="button" className="panel-toggle" aria-expanded={open} aria-controls="problems-body" onClick={onToggle} data-testid="problems-toggle">
          <ChevronDown className={`panel-chevron${open ? '' : ' closed'}`} size={14} aria-hidden="true" />
          <span id="problems-title" className="panel-heading">
            {t('problems.title')}
          </span>
          <span className="count-badge" data-testid="problems-count">
            {view.total}
          </span>
        </button>
        <span className="problems-summary" aria-hidden="true">
          <SeverityIcon severity="error" /> {view.counts.error}
          <SeverityIcon severity="warning" /> {view.counts.warning}
        </span>
      </div>
      {open && (
        <div className="problems-body" id="problems-body">
          {view.total === 0 ? (
            <p className="problems-empty" data-testid="problems-empty">
              {t('problems.empty')}
            </p>
          ) : (
            <VirtualList
              className="problems-groups"
              ariaLabel={t('problems.title')}
              role="list"
              testId="problems-rows"
              count={rows.length}
              estimateRowPx={26}
              rowKey={(i) => {
                const row = rows[i];
                return row?.kind === 'file' ? `f:${row.group.path}` : `p:${row?.problem.path}:${i}`;
              }}
              renderRow={(i) => {
                const row = rows[i] as ProblemRow;
                if (row.kind === 'file') {
                  const { group } = row;
                  return (
                    <div className="problems-file" role="listitem" data-testid="problems-group" data-path={group.path} data-count={group.problems.length}>
                      <FileIcon name={group.path.slice(group.path.lastIndexOf('/') + 1)} size={14} />
                      <span className="problems-file-name">{group.path}</span>
                      <span className="count-badge">{group.problems.length}</span>
                    </div>
                  );
                }
                const { problem } = row;
                return (
                  <div role="listitem">
                    <button
                      type="button"
                      className="problem-row"
                      data-testid="problem-row"
                      data-path={problem.path}
                      data-severity={problem.severity}
                      data-line={problem.range.startLineNumber}
                      data-column={problem.range.startColumn}
                      onClick={() => onReveal(problem)}
                    >
                      <SeverityIcon severity={problem.severity} />
                      <span className="visually-hidden">{t(`problems.severity.${problem.severity}`)}</span>
                      <span className="problem-message">{problem.message}</span>
                      {(problem.source || problem.code) && (
                        <span className="problem-source">
                          {t('problems.source', { source: problem.source ?? '', code: problem.code ? `(${problem.code})` : '' })}
                        </span>
                      )}
                      <span className="problem-location">
                        {t('problems.location', { line: problem.range.startLineNumber, column: problem.range.startColumn })}
                      </span>
                    </button>
                  </div>
                );
              }}
            />
          )}
        </div>
      )}
    </section>
  );
}

/** The panel's rows: each file's header, then its problems (any number: only those in view are drawn). */
type ProblemRow = { kind: 'file'; group: ProblemGroup } | { kind: 'problem'; problem: Problem };

function problemRows(view: ProblemsView): ProblemRow[] {
  const rows: ProblemRow[] = [];
  for (const group of view.groups) {
    rows.push({ kind: 'file', group });
    for (const problem of group.problems) rows.push({ kind: 'problem', problem });
  }
  return rows;
}
