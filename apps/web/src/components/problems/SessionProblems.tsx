import { useEffect } from 'react';
import type { MonacoApi } from '../../lib/lsp/providers/host.js';
import type { Problem } from '../../lib/workspace/problems.js';
import { useServices } from '../../services/ServicesContext.js';
import { ProblemsPanel } from './ProblemsPanel.js';
import { useProblems } from './useProblems.js';

interface SessionProblemsProps {
  monaco: MonacoApi;
  sessionId: string;
  openPaths: readonly string[];
  open: boolean;
  onToggle(): void;
  onReveal(problem: Problem): void;
}

/**
 * A session's Problems panel and the counts the status bar shows. It alone follows Monaco's marker
 * changes: each diagnostics publication (every keystroke's, with a server that checks as you
 * type) re-renders this panel, not the session's tree, tabs and editor around it.
 */
export function SessionProblems({ monaco, sessionId, openPaths, open, onToggle, onReveal }: SessionProblemsProps) {
  const { workbench } = useServices();
  const problems = useProblems(monaco, sessionId, openPaths);
  useEffect(() => {
    workbench.update({ problems: { sessionId, counts: problems.counts } });
  }, [workbench, sessionId, problems.counts]);
  useEffect(() => () => workbench.clearProblems(sessionId), [workbench, sessionId]);
  return <ProblemsPanel view={problems} open={open} onToggle={onToggle} onReveal={onReveal} />;
}
