import { useTranslation } from 'react-i18next';
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
  return (
    <section className="outline-panel" aria-label={t('outline.title')} data-testid="outline">
      <h2 className="outline-title">{t('outline.title')}</h2>
      {state.kind === 'noFile' && <p className="outline-note">{t('outline.noFile')}</p>}
      {state.kind === 'unavailable' && <p className="outline-note">{t('outline.unavailable')}</p>}
      {state.kind === 'loading' && <p className="outline-note">{t('outline.loading')}</p>}
      {state.kind === 'ready' && state.symbols.length === 0 && <p className="outline-note">{t('outline.empty')}</p>}
      {state.kind === 'ready' && state.symbols.length > 0 && (
        <ul className="outline-tree" role="tree">
          {state.symbols.map((s, i) => (
            <OutlineNode key={`${s.name}:${i}`} symbol={s} depth={0} current={current} onReveal={reveal} />
          ))}
        </ul>
      )}
    </section>
  );
}

function OutlineNode({
  symbol,
  depth,
  current,
  onReveal,
}: {
  symbol: OutlineSymbol;
  depth: number;
  current: OutlineSymbol | undefined;
  onReveal: (s: OutlineSymbol) => void;
}) {
  return (
    <li role="treeitem" aria-selected={symbol === current} aria-expanded={symbol.children.length ? true : undefined}>
      <button
        type="button"
        className={`outline-item${symbol === current ? ' outline-current' : ''}${symbol.deprecated ? ' outline-deprecated' : ''}`}
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
      {symbol.children.length > 0 && (
        <ul role="group">
          {symbol.children.map((c, i) => (
            <OutlineNode key={`${c.name}:${i}`} symbol={c} depth={depth + 1} current={current} onReveal={onReveal} />
          ))}
        </ul>
      )}
    </li>
  );
}
