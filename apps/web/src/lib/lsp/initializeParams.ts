import { languageDescriptor, pathToFileUri, type LanguageId, type WorkspaceIdentity } from '@kandev/protocol';
import type { InitializeParams, WorkspaceFolder } from 'vscode-languageserver-protocol';
import { clientCapabilities } from './clientCapabilities.js';
import { INITIALIZE_PROGRESS_TOKEN } from './progress.js';

export interface ClientInfo {
  name: string;
  version?: string;
}

/** Workspace folders from the ready frame: one per repository, or the workspace root alone. */
export function workspaceFolders(identity: WorkspaceIdentity): WorkspaceFolder[] {
  const root = identity.workspacePath.replace(/[\\/]+$/, '');
  const baseName = (p: string) => p.split(/[\\/]/).filter(Boolean).pop() ?? p;
  if (identity.repoSubpaths.length === 0) return [{ uri: identity.workspaceUri, name: baseName(root) || '/' }];
  return identity.repoSubpaths.map((sub) => ({ uri: pathToFileUri(`${root}/${sub.replace(/^[\\/]+/, '')}`), name: baseName(sub) }));
}

/** The `initialize` request of a fresh lease (ready with resumed:false) of `language`'s server. */
export function buildInitializeParams(identity: WorkspaceIdentity, clientInfo: ClientInfo, locale: string | undefined, language: LanguageId): InitializeParams {
  const server = languageDescriptor(language).server;
  const params: InitializeParams = {
    processId: null,
    clientInfo,
    rootUri: identity.workspaceUri,
    rootPath: identity.workspacePath,
    workspaceFolders: workspaceFolders(identity),
    capabilities: clientCapabilities({ dynamicPullDiagnostics: server.pullDiagnosticsRegistration?.kind !== 'static_only' }),
    trace: 'off',
    // Lets the server report the work of its initialization (e.g. a Gradle import) before answering.
    workDoneToken: INITIALIZE_PROGRESS_TOKEN,
  };
  if (locale) params.locale = locale;
  return params;
}
