import { ErrorCodes, ResponseError } from './jsonRpc.js';

/** What the client does for the server requests it answers. */
export interface ServerRequestHandlers {
  /** One value per `workspace/configuration` item (null where nothing is configured). */
  configuration(items: Array<{ section?: string; scopeUri?: string }>): unknown[];
  registerCapability(registrations: unknown[]): void;
  unregisterCapability(unregistrations: unknown[]): void;
  semanticTokensRefresh(): void;
  diagnosticRefresh(): void;
  inlayHintRefresh(): void;
  codeLensRefresh(): void;
  /** `workspace/applyEdit`: the attached browser applies it (atomically) or says why not. */
  applyEdit(params: unknown): Promise<{ applied: boolean; failureReason?: string }>;
  /** `window/showMessageRequest`: the action the person chose, or null (serverWindow.ts). */
  showMessageRequest(params: unknown): Promise<unknown>;
  /** `window/showDocument`: `{success}` saying whether it is shown now. */
  showDocument(params: unknown): Promise<{ success: boolean }>;
}

export const ANSWERED_SERVER_REQUESTS = [
  'workspace/configuration',
  'client/registerCapability',
  'client/unregisterCapability',
  'window/workDoneProgress/create',
  'workspace/semanticTokens/refresh',
  'workspace/diagnostic/refresh',
  'workspace/inlayHint/refresh',
  'workspace/codeLens/refresh',
  'workspace/applyEdit',
  'window/showMessageRequest',
  'window/showDocument',
] as const;

function arrayField(params: unknown, field: string): unknown[] {
  if (typeof params !== 'object' || params === null) return [];
  const value = (params as Record<string, unknown>)[field];
  return Array.isArray(value) ? value : [];
}

/**
 * Routes a server request to its answer. Unknown methods get a MethodNotFound error, never
 * silence: a server waiting on an unanswered request can stall forever.
 */
export function createServerRequestRouter(handlers: ServerRequestHandlers): (method: string, params: unknown) => unknown {
  return (method, params) => {
    switch (method) {
      case 'workspace/configuration':
        return handlers.configuration(arrayField(params, 'items') as Array<{ section?: string; scopeUri?: string }>);
      case 'client/registerCapability':
        handlers.registerCapability(arrayField(params, 'registrations'));
        return null;
      case 'client/unregisterCapability':
        // The LSP spec spells the field `unregisterations`; accept the corrected spelling too.
        handlers.unregisterCapability([...arrayField(params, 'unregisterations'), ...arrayField(params, 'unregistrations')]);
        return null;
      case 'window/workDoneProgress/create':
        return null;
      case 'workspace/semanticTokens/refresh':
        handlers.semanticTokensRefresh();
        return null;
      case 'workspace/diagnostic/refresh':
        handlers.diagnosticRefresh();
        return null;
      case 'workspace/inlayHint/refresh':
        handlers.inlayHintRefresh();
        return null;
      case 'workspace/codeLens/refresh':
        handlers.codeLensRefresh();
        return null;
      case 'workspace/applyEdit':
        return handlers.applyEdit(params);
      case 'window/showMessageRequest':
        return handlers.showMessageRequest(params);
      case 'window/showDocument':
        return handlers.showDocument(params);
      default:
        throw new ResponseError(ErrorCodes.MethodNotFound, `Unhandled method ${method}`);
    }
  };
}
