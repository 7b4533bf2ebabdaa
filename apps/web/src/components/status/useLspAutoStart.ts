import { useEffect } from 'react';
import type { LanguageId } from '@kandev/protocol';
import { useSettings } from '../../services/useSettings.js';
import { useServices } from '../../services/ServicesContext.js';
import { shouldAutoStart } from '../../lib/lsp/autoStart.js';
import type { LspConnection } from '../../lib/lsp/connection.js';
import { watchBuiltinDemand } from '../../lib/monaco/typescriptWorkerGate.js';

/**
 * Starts (or resumes) a desktop editor's server by policy, wherever its status is shown (toolbar or
 * status bar). Phones never call this (S58).
 */
export function useLspAutoStart(connection: LspConnection | undefined, language: LanguageId | undefined): void {
  const settings = useSettings();
  const { leaseHints, typescriptWorker } = useServices();
  useEffect(() => {
    if (!settings || !connection || !language) return;
    const start = shouldAutoStart({
      language,
      state: connection.getStatus().state,
      stoppedByUser: connection.stoppedByUser,
      autoStartLanguages: settings.lsp_auto_start_languages,
      hasLeaseHint: leaseHints.get(connection.sessionId, language) !== undefined,
      phone: false,
    });
    if (start) connection.start();
    // After the decision: a TypeScript editor whose server is not on its way needs the built-ins.
    if (language !== 'typescript') return undefined;
    const demand = watchBuiltinDemand(connection, typescriptWorker);
    return () => demand.dispose();
  }, [connection, language, settings, leaseHints, typescriptWorker]);
}
