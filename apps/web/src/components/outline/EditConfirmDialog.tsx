import { useTranslation } from 'react-i18next';
import { useSnapshot } from '../../app/useSnapshot.js';
import { useServices } from '../../services/ServicesContext.js';
import type { AnnotatedChange } from '../../lib/lsp/edits/annotations.js';
import type { SessionWorkspace } from '../../lib/workspace/sessionWorkspace.js';
import { Dialog } from '../ui/Dialog.js';

function changeText(t: (key: string, params?: Record<string, unknown>) => string, change: AnnotatedChange): string {
  return change.kind === 'rename'
    ? t('confirm.change.rename', { path: change.path, to: change.to })
    : t(`confirm.change.${change.kind}`, { path: change.path });
}

/**
 * A WorkspaceEdit whose change annotations need confirmation: each annotation's label and
 * description with the changes it covers. Apply applies the whole edit; Cancel, Escape or closing
 * applies nothing (the edit is all or nothing, like every other).
 */
export function EditConfirmDialog({ workspace }: { workspace: SessionWorkspace }) {
  const { t } = useTranslation('editing');
  const { editing } = useServices();
  const pending = useSnapshot(editing.confirmations.onDidChange, editing.confirmations.getSnapshot);
  const current = pending.find((p) => p.sessionId === workspace.sessionId);
  if (!current) return null;
  const answer = (confirmed: boolean) => editing.confirmations.answer(current.id, confirmed);
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) answer(false);
      }}
      title={t('confirm.title')}
      description={t('confirm.description')}
      testId="edit-confirmation"
      footer={
        <>
          <button type="button" className="btn" onClick={() => answer(false)} data-testid="edit-confirmation-cancel">
            {t('confirm.cancel')}
          </button>
          <button type="button" className="btn btn-primary" onClick={() => answer(true)} data-testid="edit-confirmation-apply">
            {t('confirm.apply')}
          </button>
        </>
      }
    >
      <ul className="edit-confirmation-groups">
        {current.groups.map((group, i) => (
          <li key={i} className="edit-confirmation-group">
            <strong className="edit-confirmation-label">{group.label}</strong>
            {group.description && <p className="edit-confirmation-description">{group.description}</p>}
            <ul className="edit-confirmation-changes">
              {group.changes.map((change, j) => (
                <li key={j}>{changeText(t, change)}</li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
