import { Search } from 'lucide-react';
import { after, type Disposable } from '@kandev/kit';
import { useContext, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { ClockContext } from '../../app/clock.js';
import { useTranslation } from 'react-i18next';
import type { FileIndexState } from '../../lib/workspace/fileIndex.js';
import { rankPaths } from '../../lib/workspace/fuzzy.js';
import { FileIcon } from '../files/FileIcon.js';
import { Dialog } from '../ui/Dialog.js';
import { useServices } from '../../services/ServicesContext.js';

type IndexState = FileIndexState;

/** While the walk goes on, the list is ranked again at most this often (a big workspace lists thousands of folders). */
const LISTING_REFRESH_MS = 150;

interface QuickOpenProps {
  sessionId: string;
  open: boolean;
  onOpenChange(open: boolean): void;
  listFiles(folder: string): Promise<import('@kandev/protocol').FileEntry[]>;
  onPick(path: string): void;
}

const MAX_RESULTS = 50;

/** Ctrl/Cmd+P: fuzzy file search over the workspace, driven by the keyboard alone (combobox + listbox). */
export function QuickOpen({ sessionId, open, onOpenChange, listFiles, onPick }: QuickOpenProps) {
  const { t } = useTranslation('workbench');
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState(0);
  const clock = useContext(ClockContext);
  const [index, setIndex] = useState<IndexState>({ state: 'listing', paths: [] });
  // The walk's array grows in place while listing: a counter tells React to rank again.
  const [listed, setListed] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);
  const { fileIndexes } = useServices();

  useEffect(() => {
    if (!open) return;
    setQuery('');
    setSelected(0);
    const live = fileIndexes.live(sessionId, listFiles);
    let timer: Disposable | undefined;
    const show = () => {
      timer?.dispose();
      timer = undefined;
      setIndex(live.state);
      setListed((n) => n + 1);
    };
    const unsubscribe = live.subscribe(() => {
      if (live.state.state !== 'listing') show();
      else timer ??= after(clock, LISTING_REFRESH_MS, show);
    });
    show();
    return () => {
      unsubscribe();
      timer?.dispose();
    };
  }, [open, sessionId, listFiles, fileIndexes, clock]);

  const matches = useMemo(
    () => (index.state === 'error' ? [] : rankPaths(query, index.paths, MAX_RESULTS)),
    // `listed` counts the growth of a listing's paths array.
    [index, query, listed],
  );
  const current = Math.min(selected, Math.max(0, matches.length - 1));

  useEffect(() => {
    listRef.current?.querySelector<HTMLElement>(`[data-index="${current}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [current]);

  const pick = (path: string | undefined) => {
    if (!path) return;
    onOpenChange(false);
    onPick(path);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') setSelected((current + 1) % Math.max(1, matches.length));
    else if (e.key === 'ArrowUp') setSelected((current - 1 + matches.length) % Math.max(1, matches.length));
    else if (e.key === 'Enter') pick(matches[current]?.path);
    else return;
    e.preventDefault();
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('quickOpen.title')} size="lg" testId="quick-open" bare>
      <div className="quick-open-field">
        <Search size={16} aria-hidden="true" />
        <input
          autoFocus
          className="quick-open-input"
          data-testid="quick-open-input"
          role="combobox"
          aria-expanded="true"
          aria-controls="quick-open-list"
          aria-autocomplete="list"
          aria-activedescendant={matches[current] ? `quick-open-${current}` : undefined}
          aria-label={t('quickOpen.title')}
          placeholder={t('quickOpen.placeholder')}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setSelected(0);
          }}
          onKeyDown={onKeyDown}
        />
      </div>
      {index.state === 'listing' && (
        <p className="quick-open-info" role="status" data-testid="quick-open-listing" data-count={index.paths.length}>
          {t('quickOpen.indexing')}
        </p>
      )}
      {index.state === 'error' && (
        <p className="quick-open-info" role="alert">
          {t('quickOpen.failed')}
        </p>
      )}
      {index.state === 'loaded' && matches.length === 0 && (
        <p className="quick-open-info" data-testid="quick-open-empty">
          {t('quickOpen.noMatches')}
        </p>
      )}
      <ul className="quick-open-list" id="quick-open-list" role="listbox" aria-label={t('quickOpen.results')} ref={listRef}>
        {matches.map((match, i) => {
          const slash = match.path.lastIndexOf('/');
          const name = match.path.slice(slash + 1);
          const folder = slash > 0 ? match.path.slice(0, slash) : '';
          const hit = new Set(match.indexes);
          const mark = (text: string, offset: number) => [...text].map((ch, j) => (hit.has(offset + j) ? <mark key={j}>{ch}</mark> : ch));
          return (
            <li
              key={match.path}
              id={`quick-open-${i}`}
              role="option"
              aria-selected={i === current}
              data-index={i}
              data-testid="quick-open-item"
              data-path={match.path}
              className={`quick-open-item${i === current ? ' selected' : ''}`}
              onMouseMove={() => setSelected(i)}
              onClick={() => pick(match.path)}
            >
              <FileIcon name={name} />
              <span className="quick-open-name">{mark(name, slash + 1)}</span>
              {folder && <span className="quick-open-folder">{mark(folder, 0)}</span>}
            </li>
          );
        })}
      </ul>
      {index.state === 'loaded' && index.truncated && <p className="quick-open-info">{t('quickOpen.truncated', { count: index.paths.length })}</p>}
      <p className="quick-open-hint">{t('quickOpen.hint')}</p>
    </Dialog>
  );
}
