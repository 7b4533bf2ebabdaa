import { useTranslation } from 'react-i18next';
import { useServices } from '../../services/ServicesContext.js';
import { useWorkbench } from '../../services/windowState.js';
import { SeverityIcon } from '../problems/SeverityIcon.js';

/** Error and warning counts of the session on screen; a click opens or closes its Problems panel. */
export function ProblemsStatusItem() {
  const { t } = useTranslation('workbench');
  const { workbench } = useServices();
  const { problems, problemsOpen } = useWorkbench();
  if (!problems) return null;
  const { error, warning } = problems.counts;
  return (
    <button
      type="button"
      className="status-bar-button status-bar-problems"
      data-testid="status-bar-problems"
      data-errors={error}
      data-warnings={warning}
      aria-pressed={problemsOpen}
      onClick={() => workbench.update({ problemsOpen: !problemsOpen })}
    >
      <span className="visually-hidden">{t('problems.statusLabel', { errors: error, warnings: warning })}</span>
      <SeverityIcon severity="error" size={13} />
      <span aria-hidden="true">{error}</span>
      <SeverityIcon severity="warning" size={13} />
      <span aria-hidden="true">{warning}</span>
    </button>
  );
}
