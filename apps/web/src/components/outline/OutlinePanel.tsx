import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { VirtualList } from '../ui/VirtualList.js';
import { useActiveEditor } from '../../services/windowState.js';
import { symbolPathAt } from '../../lib/lsp/providers/documentSymbols.js';
import type { OutlineSymbol } from '../../lib/lsp/editing/registry.js';
import type { SessionWorkspace } from '../../lib/workspace/sessionWorkspace.js';
import { symbolGlyph, symbolGroup } from './symbolKinds.js';
import { useOutline } from './useOutline.js';

interface OutlinePanelProps {
  workspace: SessionWorkspace;
  path: string | undefined;
}

/** The Outline: the active file's document symbols as a tree; a click reveals the symbol. */
export function OutlinePanel({ workspace, path }: OutlinePanelProps) {
  const { t } = useTranslation('editing');
  const state = useOutline(workspace, path);
  const editor = useActiveEditor();
  const cursor = editor?.sessionId === workspace.sessionId && editor.path === path ? editor.cursor : undefined;
  const current = state.kind === 'ready' && cursor ? symbolPathAt(state.symbols, { line: cursor.line - 1, character: cursor.column - 1 }).at(-1) : undefined;
  const reveal = (symbol: OutlineSymbol) => {
    if (path) void workspace.open(path, { lineNumber: symbol.selectionRange.start.line + 1, column: symbol.selectionRange.start.character + 1 });
  };
  const rows = useMemo(() => (state.kind === 'ready' ? flattenOutline(state.symbols) : []), [state]);
  return (
    <section className="outline-panel" aria-label={t('outline.title')} data-testid="outline">
      <h2 className="outline-title">{t('outline.title')}</h2>
      {state.kind === 'noFile' && <p className="outline-note">{t('outline.noFile')}</p>}
      {state.kind === 'unavailable' && <p className="outline-note">{t('outline.unavailable')}</p>}
      {state.kind === 'loading' && <p className="outline-note">{t('outline.loading')}</p>}
      {state.kind === 'ready' && state.symbols.length === 0 && <p className="outline-note">{t('outline.empty')}</p>}
      {rows.length > 0 && (
        <VirtualList
          className="outline-tree"
          role="tree"
          ariaLabel={t('outline.title')}
          testId="outline-rows"
          count={rows.length}
          estimateRowPx={ROW_PX}
          rowKey={(i) => rows[i]?.key ?? String(i)}
          renderRow={(i) => {
            const row = rows[i] as OutlineRow;
            return <OutlineItem row={row} current={row.symbol === current} onReveal={reveal} />;
          }}
        />
      )}
    </section>
  );
}

/** Rows of the Outline: one per symbol, depth first, children right after their parent. */
interface OutlineRow {
  symbol: OutlineSymbol;
  depth: number;
  /** Position among its siblings (1-based) and their number, for assistive technology. */
  position: number;
  siblings: number;
  key: string;
}

export function flattenOutline(symbols: OutlineSymbol[]): OutlineRow[] {
  const rows: OutlineRow[] = [];
  const visit = (list: OutlineSymbol[], depth: number, parentKey: string) => {
    list.forEach((symbol, i) => {
      const key = `${parentKey}/${i}:${symbol.name}`;
      rows.push({ symbol, depth, position: i + 1, siblings: list.length, key });
      visit(symbol.children, depth + 1, key);
    });
  };
  visit(symbols, 0, '');
  return rows;
}

/** A row's height before measuring: one line of the Outline's font and padding. */
const ROW_PX = 24;

function OutlineItem({ row, current, onReveal }: { row: OutlineRow; current: boolean; onReveal: (s: OutlineSymbol) => void }) {
  const { symbol, depth } = row;
  return (
    <div
      role="treeitem"
      aria-selected={current}
      aria-level={depth + 1}
      aria-posinset={row.position}
      aria-setsize={row.siblings}
      aria-expanded={symbol.children.length ? true : undefined}
    >
      <button
        type="button"
        className={`outline-item${current ? ' outline-current' : ''}${symbol.deprecated ? ' outline-deprecated' : ''}`}
        style={{ paddingInlineStart: `${0.5 + depth * 0.9}rem` }}
        data-symbol={symbol.name}
        onClick={() => onReveal(symbol)}
      >
        <span className={`symbol-glyph symbol-${symbolGroup(symbol.kind)}`} aria-hidden="true">
          {symbolGlyph(symbol.kind)}
        </span>
        <span className="outline-name">{symbol.name}</span>
        {symbol.detail && <span className="outline-detail">{symbol.detail}</span>}
      </button>
    </div>
  );
}
