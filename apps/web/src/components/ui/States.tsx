import { CircleAlert, LoaderCircle } from 'lucide-react';
import type { ReactNode } from 'react';

/** A centred empty state: an icon, what is (not) here, and the way forward. */
export function EmptyState({
  icon,
  title,
  children,
  action,
  testId,
}: {
  icon?: ReactNode;
  title: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  testId?: string;
}) {
  return (
    <div className="empty-state" data-testid={testId}>
      {icon && (
        <div className="empty-state-icon" aria-hidden="true">
          {icon}
        </div>
      )}
      <p className="empty-state-title">{title}</p>
      {children && <div className="empty-state-text">{children}</div>}
      {action && <div className="empty-state-action">{action}</div>}
    </div>
  );
}

export function LoadingState({ label }: { label: ReactNode }) {
  return (
    <div className="loading-state" role="status">
      <LoaderCircle className="spin" size={16} aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** A failure with what to do about it (usually a Retry button). */
export function ErrorState({ title, action, testId }: { title: ReactNode; action?: ReactNode; testId?: string }) {
  return (
    <div className="error-state" role="alert" data-testid={testId}>
      <CircleAlert size={16} aria-hidden="true" />
      <span>{title}</span>
      {action}
    </div>
  );
}
