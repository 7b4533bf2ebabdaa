import { useEffect, useMemo, useState } from 'react';
import type { MonacoApi } from '../../lib/lsp/providers/host.js';
import { problemsOf, type MarkerLike, type ProblemsView } from '../../lib/workspace/problems.js';

/**
 * The Problems of a session, recomputed on every marker change (each diagnostics publication)
 * and whenever the set of open files changes, from Monaco's markers of the session's models.
 */
export function useProblems(monaco: MonacoApi, sessionId: string, openPaths: readonly string[]): ProblemsView {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const subscription = monaco.editor.onDidChangeMarkers(() => setTick((n) => n + 1));
    return () => subscription.dispose();
  }, [monaco]);
  const key = openPaths.join('\n');
  return useMemo(
    () => problemsOf(monaco.editor.getModelMarkers({}) as unknown as MarkerLike[], sessionId, new Set(openPaths)),
    // `key` stands for openPaths (a new array each render); `tick` for the marker service.
    [monaco, sessionId, key, tick],
  );
}
