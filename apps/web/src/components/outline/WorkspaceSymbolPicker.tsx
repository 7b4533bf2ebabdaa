import { after } from '@kandev/kit';
import { useContext, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ClockContext } from '../../app/clock.js';
import { useServices } from '../../services/ServicesContext.js';
import type { CancellationLike } from '../../lib/lsp/jsonRpc.js';
import type { EditingRegistry, WorkspaceSymbolItem } from '../../lib/lsp/editing/registry.js';
import { CancelSource } from '../../lib/lsp/cancellation.js';
import type { SessionWorkspace } from '../../lib/workspace/sessionWorkspace.js';
import { symbolGlyph, symbolGroup } from './symbolKinds.js';

const SEARCH_DELAY_MS = 150;
const MAX_ITEMS = 100;

type Results = { kind: 'idle' } | { kind: 'unavailable' } | { kind: 'searching' } | { kind: 'done'; items: WorkspaceSymbolItem[] };

/** Every running connection of the session is asked; a superseded search is cancelled ($/cancelRequest). */
async function searchAll(editing: EditingRegistry, sessionId: string, query: string, token: CancellationLike): Promise<WorkspaceSymbolItem[] | undefined> {
  const sources = editing.workspaceSymbols.ofSession(sessionId);
  if (sources.length === 0) return undefined;
  const answers = await Promise.all(sources.map((search) => search(query, token).catch(() => [] as WorkspaceSymbolItem[])));
  return answers.flat().slice(0, MAX_ITEMS);
}

/** Go to Symbol in Workspace (Ctrl/Cmd+T): workspace/symbol across the session's servers. */
export function WorkspaceSymbolPicker({ workspace }: { workspace: SessionWorkspace }) {
  const { t } = useTranslation('editing');
  const { editing } = useServices();
  const clock = useContext(ClockContext);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Results>({ kind: 'idle' });
  const [selected, setSelected] = useState(0);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    // Capture phase: before Monaco, which would otherwise take the keystroke in the editor.
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 't') {
        e.preventDefault();
        e.stopPropagation();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return undefined;
    const source = new CancelSource();
    const timer = after(clock, SEARCH_DELAY_MS, () => {
      setResults({ kind: 'searching' });
      void searchAll(editing, workspace.sessionId, query, source.token).then((items) => {
        if (source.token.isCancellationRequested) return;
        setSelected(0);
        setResults(items === undefined ? { kind: 'unavailable' } : { kind: 'done', items });
      });
    });
    return () => {
      timer.dispose();
      source.cancel();
    };
  }, [open, query, workspace, clock]);

  if (!open) return null;
  const items = results.kind === 'done' ? results.items : [];
  const close = () => {
    setOpen(false);
    setQuery('');
    setResults({ kind: 'idle' });
  };
  const choose = async (item: WorkspaceSymbolItem | undefined) => {
    if (!item) return;
    const target = item.range || !item.resolve ? item : await item.resolve();
    close();
    if (!target.path) return;
    const start = target.range?.start;
    void workspace.open(target.path, start ? { lineNumber: start.line + 1, column: start.character + 1 } : undefined);
  };
  return (
    <div className="symbol-picker-backdrop" onMouseDown={close}>
      <div
        className="symbol-picker"
        role="dialog"
        aria-modal="true"
        aria-label={t('symbols.title')}
        data-testid="workspace-symbols"
        onMouseDown={(e) => e.stopPropagation()}
      >
        <input
          ref={input}
          type="search"
          value={query}
          placeholder={t('symbols.placeholder')}
          aria-label={t('symbols.title')}
          aria-controls="workspace-symbol-list"
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') close();
            else if (e.key === 'ArrowDown') setSelected((s) => Math.min(s + 1, items.length - 1));
            else if (e.key === 'ArrowUp') setSelected((s) => Math.max(s - 1, 0));
            else if (e.key === 'Enter') void choose(items[selected]);
            else return;
            e.preventDefault();
          }}
        />
        {results.kind === 'unavailable' && <p className="symbol-note">{t('symbols.unavailable')}</p>}
        {results.kind === 'searching' && <p className="symbol-note">{t('symbols.searching')}</p>}
        {results.kind === 'done' && items.length === 0 && <p className="symbol-note">{t('symbols.empty')}</p>}
        <ul id="workspace-symbol-list" role="listbox" className="symbol-list">
          {items.map((item, i) => (
            <li
              key={`${item.uri}:${item.name}:${i}`}
              role="option"
              aria-selected={i === selected}
              className={i === selected ? 'symbol-selected' : undefined}
              onMouseEnter={() => setSelected(i)}
              onClick={() => void choose(item)}
            >
              <span className={`symbol-glyph symbol-${symbolGroup(item.kind)}`} aria-hidden="true">
                {symbolGlyph(item.kind)}
              </span>
              <span className="symbol-name">{item.name}</span>
              {item.containerName && <span className="symbol-container">{item.containerName}</span>}
              <span className="symbol-path">{item.path ?? item.uri}</span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
