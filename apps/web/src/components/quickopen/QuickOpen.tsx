import { Search } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileIndexResult } from '../../lib/workspace/fileIndex.js';
import { rankPaths } from '../../lib/workspace/fuzzy.js';
import { FileIcon } from '../files/FileIcon.js';
import { Dialog } from '../ui/Dialog.js';
import { useServices } from '../../services/ServicesContext.js';

type IndexState = { state: 'loading' } | { state: 'error' } | ({ state: 'loaded' } & FileIndexResult);

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
  const [index, setIndex] = useState<IndexState>({ state: 'loading' });
  const listRef = useRef<HTMLUListElement>(null);
  const { fileIndexes } = useServices();

  useEffect(() => {
    if (!open) return;
    setQuery('');
    setSelected(0);
    let live = true;
    fileIndexes.get(sessionId, listFiles).then(
      (result) => live && setIndex({ state: 'loaded', ...result }),
      () => live && setIndex({ state: 'error' }),
    );
    return () => {
      live = false;
    };
  }, [open, sessionId, listFiles, fileIndexes]);

  const matches = useMemo(() => (index.state === 'loaded' ? rankPaths(query, index.paths, MAX_RESULTS) : []), [index, query]);
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
      {index.state === 'loading' && (
        <p className="quick-open-info" role="status">
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
