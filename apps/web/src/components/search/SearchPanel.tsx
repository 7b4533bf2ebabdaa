import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SearchHit } from '@kandev/protocol';
import { api } from '../../app/services.js';

type SearchState = { state: 'idle' } | { state: 'searching' } | { state: 'error' } | { state: 'done'; hits: SearchHit[]; truncated: boolean };

interface SearchPanelProps {
  sessionId: string;
  onOpenHit(hit: SearchHit): void;
}

/** Content search of one session; a hit opens that session's file at its line and column (S37). */
export function SearchPanel({ sessionId, onOpenHit }: SearchPanelProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [result, setResult] = useState<SearchState>({ state: 'idle' });
  const latest = useRef(0);

  const run = (text: string) => {
    const id = ++latest.current;
    if (!text.trim()) {
      setResult({ state: 'idle' });
      return;
    }
    setResult({ state: 'searching' });
    api.search(sessionId, text).then(
      (res) => {
        if (id === latest.current) setResult({ state: 'done', hits: Array.isArray(res.hits) ? res.hits : [], truncated: res.truncated === true });
      },
      () => {
        if (id === latest.current) setResult({ state: 'error' });
      },
    );
  };

  useEffect(() => {
    const handle = setTimeout(() => run(query), 300);
    return () => clearTimeout(handle);
    // Debounced on the query (and session) only; `run` reads the latest state itself.
  }, [query, sessionId]);

  return (
    <section className="search-panel" aria-label={t('search.label')}>
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          run(query);
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
      </form>
      {result.state === 'searching' && <p className="search-info">{t('search.searching')}</p>}
      {result.state === 'error' && <p className="search-info" role="alert">{t('search.failed')}</p>}
      {result.state === 'done' && result.hits.length === 0 && <p className="search-info">{t('search.noResults')}</p>}
      {result.state === 'done' && result.hits.length > 0 && (
        <ul className="search-hits">
          {result.hits.map((hit, i) => (
            <li key={`${hit.path}:${hit.line}:${hit.column}:${i}`}>
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
            </li>
          ))}
        </ul>
      )}
      {result.state === 'done' && result.truncated && <p className="search-info">{t('search.truncated', { count: result.hits.length })}</p>}
    </section>
  );
}
