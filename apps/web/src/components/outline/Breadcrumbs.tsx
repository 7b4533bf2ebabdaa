import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useActiveEditor } from '../../services/windowState.js';
import { symbolPathAt } from '../../lib/lsp/providers/documentSymbols.js';
import type { SessionWorkspace } from '../../lib/workspace/sessionWorkspace.js';
import { symbolGlyph, symbolGroup } from './symbolKinds.js';
import { useOutline } from './useOutline.js';

/** Path segments of the active file, then the symbols that contain the cursor (from documentSymbol). */
export function Breadcrumbs({ workspace, path }: { workspace: SessionWorkspace; path: string }) {
  const { t } = useTranslation('editing');
  const state = useOutline(workspace, path);
  const editor = useActiveEditor();
  const cursor = editor?.sessionId === workspace.sessionId && editor.path === path ? editor.cursor : undefined;
  const symbols = state.kind === 'ready' && cursor ? symbolPathAt(state.symbols, { line: cursor.line - 1, character: cursor.column - 1 }) : [];
  const segments = path.split('/');
  const nav = useRef<HTMLElement>(null);
  const innermost = symbols.map((s) => s.name).join('\u0000');
  // Where even shortened crumbs do not fit (a narrow editor), the end stays in view: the symbol
  // that holds the caret matters more than the first folders of its path.
  useLayoutEffect(() => {
    const el = nav.current;
    if (el) el.scrollLeft = el.scrollWidth;
  }, [path, innermost]);
  return (
    // Focusable because a long path scrolls sideways: a keyboard user must be able to scroll it too.
    <nav className="breadcrumbs" aria-label={t('breadcrumbs.label')} data-testid="breadcrumbs" ref={nav} tabIndex={0}>
      <ol>
        {segments.map((segment, i) => (
          <li key={`p${i}`} className={`crumb crumb-path ${i === segments.length - 1 ? 'crumb-file' : 'crumb-dir'}`} title={segment}>
            {segment}
          </li>
        ))}
        {symbols.map((s, i) => (
          <li key={`s${i}`} className="crumb crumb-symbol" title={s.name}>
            <button
              type="button"
              onClick={() => void workspace.open(path, { lineNumber: s.selectionRange.start.line + 1, column: s.selectionRange.start.character + 1 })}
            >
              <span className={`symbol-glyph symbol-${symbolGroup(s.kind)}`} aria-hidden="true">
                {symbolGlyph(s.kind)}
              </span>
              <span className="crumb-name">{s.name}</span>
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
