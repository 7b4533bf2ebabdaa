import type { ExecutorKind } from '@kandev/protocol';
import { Ban } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/**
 * S26: the task's executor cannot run tasks or language servers. Shown instead of the file tree
 * and editor, so nothing lists files, starts a session or opens an /lsp socket for it. The headline
 * is the same copy the language-server status shows for close code 4004.
 */
export function UnsupportedExecutorNotice({ executor }: { executor: ExecutorKind }) {
  const { t } = useTranslation();
  const { t: tl } = useTranslation('lsp');
  const { t: tw } = useTranslation('workbench');
  const name = t(`tasks.executor.${executor}`, { defaultValue: executor });
  return (
    <div className="session-ended session-unsupported" role="status" data-testid="session-unsupported" data-executor={executor}>
      <Ban size={28} aria-hidden="true" />
      <p className="empty-state-title">{tl('close.4004')}</p>
      <p className="empty-state-text">{tw('sessions.unsupportedExecutor', { executor: name })}</p>
      <p className="empty-state-text">{tl('guidance.unsupportedExecutor')}</p>
    </div>
  );
}
