import { useTranslation } from 'react-i18next';
import { activeEditor } from '../../app/activeEditor.js';
import { symbolPathAt } from '../../lib/lsp/providers/documentSymbols.js';
import type { SessionWorkspace } from '../../lib/workspace/sessionWorkspace.js';
import { symbolGlyph, symbolGroup } from './symbolKinds.js';
import { useOutline } from './useOutline.js';
import { useSnapshot } from '../../app/useSnapshot.js';

/** Path segments of the active file, then the symbols that contain the cursor (from documentSymbol). */
export function Breadcrumbs({ workspace, path }: { workspace: SessionWorkspace; path: string }) {
  const { t } = useTranslation('editing');
  const state = useOutline(workspace, path);
  const editor = useSnapshot(activeEditor.onDidChange, activeEditor.get);
  const cursor = editor?.sessionId === workspace.sessionId && editor.path === path ? editor.cursor : undefined;
  const symbols = state.kind === 'ready' && cursor ? symbolPathAt(state.symbols, { line: cursor.line - 1, character: cursor.column - 1 }) : [];
  return (
    <nav className="breadcrumbs" aria-label={t('breadcrumbs.label')} data-testid="breadcrumbs">
      <ol>
        {path.split('/').map((segment, i) => (
          <li key={`p${i}`} className="crumb crumb-path">
            {segment}
          </li>
        ))}
        {symbols.map((s, i) => (
          <li key={`s${i}`} className="crumb crumb-symbol">
            <button type="button" onClick={() => void workspace.open(path, { lineNumber: s.selectionRange.start.line + 1, column: s.selectionRange.start.character + 1 })}>
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
