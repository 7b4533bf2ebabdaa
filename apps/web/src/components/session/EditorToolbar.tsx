import { Save } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LspStatusControl } from '../status/LspStatusControl.js';
import type { DesktopSessionController } from './useDesktopSessionController.js';

/** Above the editor: Save, the unsaved note, and the language server's status where settings put it. */
export function EditorToolbar({ session }: { session: DesktopSessionController }) {
  const { t } = useTranslation();
  const { sessionId, active, language, connection, placement, form, save } = session;
  return (
    <div className="editor-toolbar">
      <button type="button" className="btn btn-sm" data-testid="save" onClick={save} disabled={!active || active.saving}>
        <Save size={14} aria-hidden="true" />
        {active?.saving ? t('editor.saving') : t('editor.save')}
      </button>
      {active?.dirty && <span className="dirty-note">{t('editor.unsaved')}</span>}
      {language && connection && placement === 'toolbar' && (
        <LspStatusControl key={`${sessionId}:${language}`} connection={connection} language={language} surface={form === 'tablet' ? 'drawer' : 'popover'} />
      )}
    </div>
  );
}
