import type { GitFileChange, Locale } from '@kandev/protocol';
import { ChevronDown } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { countText } from '../../i18n/format.js';
import { isLocale } from '../../i18n/i18n.js';
import type { LiveSnapshot } from '../../lib/live/liveState.js';
import { FileIcon } from '../files/FileIcon.js';
import { GitMark } from '../files/GitMark.js';
import { WatchModeNotice } from './WatchModeNotice.js';
import './live.css';

interface ChangesPanelProps {
  live: LiveSnapshot;
  /** Opens a change (its diff against HEAD); without it the list is read-only. */
  onOpen?(change: GitFileChange): void;
  /** The change on screen, marked as current. */
  currentPath?: string;
}

const ORDER: Record<GitFileChange['status'], number> = { modified: 0, renamed: 1, added: 2, untracked: 3, deleted: 4 };

/** What changed against HEAD in a git workspace, live: status, path and line counts per file. */
export function ChangesPanel({ live, onOpen, currentPath }: ChangesPanelProps) {
  const { t, i18n } = useTranslation('live');
  const locale: Locale = isLocale(i18n.language) ? i18n.language : 'en';
  const [open, setOpen] = useState(true);
  const id = useId();
  const git = live.git;
  const files = git?.available ? [...git.files].sort((a, b) => ORDER[a.status] - ORDER[b.status] || a.path.localeCompare(b.path)) : [];
  // One Tab stop for the whole list (the row last focused, else the one shown, else the first); arrows move within it.
  const [focused, setFocused] = useState<string | undefined>();
  const listed = (path: string | undefined) => (path !== undefined && files.some((f) => f.path === path) ? path : undefined);
  const tabStop = listed(focused) ?? listed(currentPath) ?? files[0]?.path;
  return (
    <section
      className="changes-panel"
      data-testid="changes-panel"
      data-git={git ? (git.available ? 'available' : git.reason) : 'waiting'}
      aria-labelledby={`${id}-title`}
    >
      <div className="changes-header">
        <button
          type="button"
          className="panel-toggle"
          aria-expanded={open}
          aria-controls={`${id}-body`}
          onClick={() => setOpen((o) => !o)}
          data-testid="changes-toggle"
        >
          <ChevronDown className={`panel-chevron${open ? '' : ' closed'}`} size={14} aria-hidden="true" />
          <span id={`${id}-title`} className="panel-heading">
            {t('changes.title')}
          </span>
          {git?.available && (
            <span className="count-badge" data-testid="changes-count" aria-label={countText(t, locale, 'changes.count', files.length, 'live')}>
              {files.length}
            </span>
          )}
        </button>
      </div>
      {open && (
        <div className="changes-body" id={`${id}-body`}>
          <WatchModeNotice watch={live.watch} />
          {live.stream === 'waiting' && (
            <p className="changes-note" role="status" data-testid="live-reconnecting">
              {t('watch.reconnecting')}
            </p>
          )}
          {!git && <p className="changes-note">{t('changes.waiting')}</p>}
          {git && !git.available && (
            <p className="changes-note" data-testid="changes-unavailable" data-reason={git.reason}>
              {t(`changes.unavailable.${git.reason}`)}
            </p>
          )}
          {git?.available && (
            <>
              {onOpen && files.length > 0 && (
                <p id={`${id}-keys`} className="visually-hidden">
                  {t('changes.listKeys')}
                </p>
              )}
              <p className="changes-branch">{git.branch ? t('changes.branch', { branch: git.branch }) : t('changes.detached')}</p>
              {files.length === 0 ? (
                <p className="changes-note" data-testid="changes-empty">
                  {t('changes.none')}
                </p>
              ) : (
                <ul
                  className="changes-list"
                  aria-label={t('changes.title')}
                  aria-describedby={onOpen ? `${id}-keys` : undefined}
                  onKeyDown={onOpen ? moveFocus : undefined}
                >
                  {files.map((change) => (
                    <li key={change.path}>
                      <ChangeRow
                        change={change}
                        onOpen={onOpen}
                        current={change.path === currentPath}
                        tabbable={change.path === tabStop}
                        onFocus={() => setFocused(change.path)}
                      />
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </div>
      )}
    </section>
  );
}

const MOVES: Record<string, (index: number, last: number) => number> = {
  ArrowDown: (i, last) => Math.min(i + 1, last),
  ArrowUp: (i) => Math.max(i - 1, 0),
  Home: () => 0,
  End: (_i, last) => last,
};

/** Arrow keys, Home and End move the focus between the rows of the list (Enter or Space opens one). */
function moveFocus(event: KeyboardEvent<HTMLUListElement>): void {
  const move = MOVES[event.key];
  if (!move || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const rows = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button[data-testid="change-row"]')];
  const index = rows.findIndex((row) => row === document.activeElement);
  if (index < 0) return;
  event.preventDefault();
  rows[move(index, rows.length - 1)]?.focus();
}

interface ChangeRowProps {
  change: GitFileChange;
  onOpen?(change: GitFileChange): void;
  current: boolean;
  /** The list's one Tab stop. */
  tabbable: boolean;
  onFocus(): void;
}

function ChangeRow({ change, onOpen, current, tabbable, onFocus }: ChangeRowProps) {
  const { t } = useTranslation('live');
  const slash = change.path.lastIndexOf('/');
  const name = change.path.slice(slash + 1);
  const folder = slash === -1 ? '' : change.path.slice(0, slash);
  const counted = change.added !== undefined || change.deleted !== undefined;
  const lines = t('changes.linesLabel', { added: change.added ?? 0, deleted: change.deleted ?? 0 });
  // The row's content is its accessible name: file, folder, status word and counts in words.
  const body = (
    <>
      <FileIcon name={name} size={14} />
      <span className="change-name">{name}</span>
      <span className="change-folder">{change.from ? t('changes.renamedFrom', { from: change.from }) : folder}</span>
      {counted ? (
        <span className="change-lines" data-testid="change-lines" title={lines}>
          <span aria-hidden="true">
            <span className="lines-added">+{change.added ?? 0}</span> <span className="lines-deleted">−{change.deleted ?? 0}</span>
          </span>
          <span className="visually-hidden">{`, ${lines}`}</span>
        </span>
      ) : (
        <span className="change-lines">{t('changes.binary')}</span>
      )}
      <GitMark status={change.status} />
    </>
  );
  const common = { className: `change-row${current ? ' current' : ''}`, 'data-testid': 'change-row', 'data-path': change.path, 'data-status': change.status };
  if (!onOpen) return <div {...common}>{body}</div>;
  return (
    <button
      type="button"
      {...common}
      title={t('changes.openDiff', { path: change.path })}
      aria-current={current ? 'true' : undefined}
      tabIndex={tabbable ? 0 : -1}
      onFocus={onFocus}
      onClick={() => onOpen(change)}
    >
      {body}
    </button>
  );
}
