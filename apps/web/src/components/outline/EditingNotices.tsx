import { useTranslation } from 'react-i18next';
import { useServices } from '../../services/ServicesContext.js';
import { useSnapshot } from '../../app/useSnapshot.js';
import './editingNotices.css';

/**
 * Messages from editing features (an edit refused, a command failed), until dismissed. Placed by
 * the shell in the flow above the status bar, beside the server toasts: the page above gives up
 * the height they take rather than being covered.
 */
export function EditingNotices() {
  const { t } = useTranslation('editing');
  const { editingNotices } = useServices();
  const notices = useSnapshot(editingNotices.onDidChange, editingNotices.getSnapshot);
  if (notices.length === 0) return null;
  return (
    <div className="message-strip editing-notices" role="status" aria-live="polite" data-testid="editing-notices">
      {notices.map((n) => (
        <p key={n.id} className="banner banner-error editing-notice">
          <span>{n.text}</span>
          <button type="button" onClick={() => editingNotices.dismiss(n.id)}>
            {t('notice.dismiss')}
          </button>
        </p>
      ))}
    </div>
  );
}
