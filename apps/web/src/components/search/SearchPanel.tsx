import { after } from '@kandev/kit';
import { useContext, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ClockContext } from '../../app/clock.js';
import type { SearchHit, SearchOptions } from '@kandev/protocol';
import { ApiRequestError } from '../../api/kandevApi.js';
import { useServices } from '../../services/ServicesContext.js';
import { VirtualList } from '../ui/VirtualList.js';

type SearchState =
  | { state: 'idle' }
  | { state: 'searching'; hits: SearchHit[] }
  | { state: 'error'; invalid: boolean }
  | { state: 'done'; hits: SearchHit[]; truncated: boolean };

interface SearchPanelProps {
  sessionId: string;
  onOpenHit(hit: SearchHit): void;
}

const OPTION_KEYS = [
  { key: 'caseSensitive', label: 'matchCase', text: 'Aa', testId: 'search-case' },
  { key: 'wholeWord', label: 'wholeWord', text: 'ab', testId: 'search-word' },
  { key: 'regex', label: 'regex', text: '.*', testId: 'search-regex' },
] as const;

/** `q` plus the options that are on, e.g. `needle|case,word`: what a result answers. */
export function searchKey(text: string, options: SearchOptions): string {
  const on = OPTION_KEYS.filter(({ key }) => options[key]).map(({ testId }) => testId.replace('search-', ''));
  return `${text}|${on.join(',')}`;
}

/**
 * Content search of one session; a hit opens that session's file at its line and column (S37).
 * Hits stream in as the task host finds them; a new query or option aborts the running search,
 * which stops it on the task host too.
 */
export function SearchPanel({ sessionId, onOpenHit }: SearchPanelProps) {
  const { api } = useServices();
  const clock = useContext(ClockContext);
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [options, setOptions] = useState<SearchOptions>({ caseSensitive: false, wholeWord: false, regex: false });
  const [result, setResult] = useState<SearchState>({ state: 'idle' });
  const running = useRef<AbortController | undefined>(undefined);
  // What the shown result answers (a test hook: a finished state of an older query is not this one's).
  const [answered, setAnswered] = useState('');

  const run = (text: string, opts: SearchOptions) => {
    running.current?.abort();
    running.current = undefined;
    if (!text.trim()) {
      setAnswered('');
      setResult({ state: 'idle' });
      return;
    }
    const cancel = new AbortController();
    running.current = cancel;
    setAnswered(searchKey(text, opts));
    let hits: SearchHit[] = [];
    setResult({ state: 'searching', hits });
    api
      .searchStream(sessionId, text, opts, cancel.signal, (batch) => {
        if (cancel.signal.aborted) return;
        hits = [...hits, ...batch];
        setResult({ state: 'searching', hits });
      })
      .then(
        (end) => {
          if (!cancel.signal.aborted) setResult({ state: 'done', hits, truncated: end.truncated });
        },
        (err: unknown) => {
          if (!cancel.signal.aborted) setResult({ state: 'error', invalid: err instanceof ApiRequestError && err.status === 400 });
        },
      );
  };

  useEffect(() => {
    const timer = after(clock, 300, () => run(query, options));
    return () => timer.dispose();
    // Debounced on the query, options and session only; `run` reads the latest state itself.
  }, [query, options, sessionId, clock]);

  // Leaving the panel (or the session) stops whatever still runs.
  useEffect(() => () => running.current?.abort(), []);

  const hits = result.state === 'searching' || result.state === 'done' ? result.hits : [];
  return (
    <section className="search-panel" aria-label={t('search.label')} data-testid="search-panel" data-search-state={result.state} data-search-key={answered}>
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          run(query, options);
        }}
      >
        <input
          type="search"
          data-testid="search-input"
          aria-label={t('search.label')}
          placeholder={t('search.placeholder')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <span className="search-options" role="group" aria-label={t('options', { ns: 'search' })}>
          {OPTION_KEYS.map(({ key, label, text, testId }) => (
            <button
              key={key}
              type="button"
              className="search-option"
              data-testid={testId}
              aria-pressed={options[key]}
              title={t(label, { ns: 'search' })}
              onClick={() => setOptions((o) => ({ ...o, [key]: !o[key] }))}
            >
              {/* The glyph ("Aa", "ab", ".*") is decoration; the name is the words beside it. */}
              <span aria-hidden="true">{text}</span>
              <span className="visually-hidden">{t(label, { ns: 'search' })}</span>
            </button>
          ))}
        </span>
      </form>
      {result.state === 'searching' && (
        <p className="search-info" role="status">
          {hits.length === 0 ? t('search.searching') : t('moreComing', { ns: 'search', count: hits.length })}
        </p>
      )}
      {result.state === 'error' && (
        <p className="search-info" role="alert">
          {result.invalid ? t('invalidQuery', { ns: 'search' }) : t('search.failed')}
        </p>
      )}
      {result.state === 'done' && hits.length === 0 && <p className="search-info">{t('search.noResults')}</p>}
      {hits.length > 0 && (
        <VirtualList
          className="search-hits"
          role="list"
          ariaLabel={t('search.label')}
          count={hits.length}
          estimateRowPx={44}
          rowKey={(i) => {
            const hit = hits[i];
            return `${hit?.path}:${hit?.line}:${hit?.column}:${i}`;
          }}
          renderRow={(i) => {
            const hit = hits[i] as SearchHit;
            return (
              <div role="listitem">
                <button
                  type="button"
                  className="search-hit"
                  data-testid="search-hit"
                  data-path={hit.path}
                  data-line={hit.line}
                  data-column={hit.column}
                  onClick={() => onOpenHit(hit)}
                >
                  <span className="search-hit-location">{t('search.location', { path: hit.path, line: hit.line, column: hit.column })}</span>
                  <span className="search-hit-preview">{hit.preview}</span>
                </button>
              </div>
            );
          }}
        />
      )}
      {result.state === 'done' && result.truncated && <p className="search-info">{t('search.truncated', { count: hits.length })}</p>}
    </section>
  );
}
