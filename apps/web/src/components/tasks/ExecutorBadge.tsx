import type { ExecutorKind } from '@kandev/protocol';
import { Cloud, Container, Laptop, Server } from 'lucide-react';
import { useTranslation } from 'react-i18next';

const ICONS = { local_pc: Laptop, local_docker: Container, remote_docker: Cloud, ssh: Server, sprites: Cloud } as const;

export function ExecutorBadge({ executor, testId }: { executor: ExecutorKind; testId?: string }) {
  const { t } = useTranslation();
  const Icon = ICONS[executor] ?? Server;
  return (
    <span className="badge badge-neutral" data-testid={testId} data-executor={executor}>
      <Icon size={12} aria-hidden="true" />
      {t(`tasks.executor.${executor}`, { defaultValue: executor })}
    </span>
  );
}
