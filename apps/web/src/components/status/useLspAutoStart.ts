import { useEffect } from 'react';
import { languageDescriptor, type LanguageId } from '@kandev/protocol';
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
    const decide = () =>
      shouldAutoStart({
        language,
        state: connection.getStatus().state,
        stoppedByUser: connection.stoppedByUser,
        autoStartLanguages: settings.lsp_auto_start_languages,
        hasLeaseHint: leaseHints.get(connection.sessionId, language) !== undefined,
        phone: false,
      });
    if (decide()) connection.start();
    // A file shown while a release was still on its way ('stopping': the idle release of the last
    // editor closed two minutes ago) was no reason to start; once that release has ended Off, it is.
    let previous = connection.getStatus().state;
    const released = connection.onDidChangeStatus((status) => {
      const was = previous;
      previous = status.state;
      if (was === 'stopping' && status.state === 'off' && decide()) connection.start();
    });
    // After the decision: an editor with Monaco built-ins (TypeScript) whose server is not on its way needs them.
    const demand = languageDescriptor(language).monaco.builtinLanguageService ? watchBuiltinDemand(connection, typescriptWorker) : undefined;
    return () => {
      released.dispose();
      demand?.dispose();
    };
  }, [connection, language, settings, leaseHints, typescriptWorker]);
}
