import type { SymbolInformation, WorkspaceSymbol } from 'vscode-languageserver-protocol';
import type { FeatureRegistration } from '../capabilities.js';
import type { Disposable } from '@kandev/kit';
import type { WorkspaceSymbolItem } from '../editing/registry.js';
import { workspaceRelativePath } from '../uris.js';
import type { ProviderHost } from './host.js';
import { isLspRange } from './ranges.js';

/** workspace/symbol answers (SymbolInformation or WorkspaceSymbol, with or without a range) -> picker items. */
export function toWorkspaceSymbolItems(
  result: Array<SymbolInformation | WorkspaceSymbol> | null | undefined,
  workspaceUri: string,
): Array<WorkspaceSymbolItem & { original: SymbolInformation | WorkspaceSymbol }> {
  if (!Array.isArray(result)) return [];
  const out: Array<WorkspaceSymbolItem & { original: SymbolInformation | WorkspaceSymbol }> = [];
  for (const symbol of result) {
    const uri = symbol?.location?.uri;
    if (typeof symbol?.name !== 'string' || typeof uri !== 'string') continue;
    const item: WorkspaceSymbolItem & { original: SymbolInformation | WorkspaceSymbol } = {
      name: symbol.name,
      kind: typeof symbol.kind === 'number' ? symbol.kind : 13,
      uri,
      original: symbol,
    };
    if (typeof symbol.containerName === 'string' && symbol.containerName) item.containerName = symbol.containerName;
    const path = workspaceRelativePath(workspaceUri, uri);
    if (path) item.path = path;
    const range = (symbol.location as { range?: unknown }).range;
    if (isLspRange(range)) item.range = range;
    out.push(item);
  }
  return out;
}

/** Go to Symbol in Workspace (Ctrl/Cmd+T): a search source for the picker, with workspaceSymbol/resolve. */
export function registerWorkspaceSymbols(host: ProviderHost, registration: FeatureRegistration<'workspaceSymbol'>): Disposable {
  const { context } = host;
  const resolvable = registration.options.resolveProvider === true;
  const withResolve = (item: ReturnType<typeof toWorkspaceSymbolItems>[number]): WorkspaceSymbolItem => {
    const { original, ...rest } = item;
    if (!resolvable || rest.range) return rest;
    return {
      ...rest,
      resolve: async () => {
        try {
          const resolved = await context.request<WorkspaceSymbol>('workspaceSymbol/resolve', original);
          return toWorkspaceSymbolItems([resolved], context.workspace.workspaceUri)[0] ?? rest;
        } catch {
          return rest;
        }
      },
    };
  };
  return host.editing.workspaceSymbols.add(context.sessionId, context.language, async (query, token) => {
    const result = await context.request<Array<SymbolInformation | WorkspaceSymbol> | null>('workspace/symbol', { query }, token);
    return toWorkspaceSymbolItems(result, context.workspace.workspaceUri).map(withResolve);
  });
}
