/**
 * Requests from the server to its client. The broker is that client's stable half: it answers
 * itself what it owns or what no browser can take, forwards to an attached browser what the
 * browser must see, and never leaves a request unanswered.
 *
 * | method                                   | browser attached          | no browser (or releasing) |
 * | ---------------------------------------- | ------------------------- | ------------------------- |
 * | workspace/configuration                  | broker, from settings     | broker, from settings     |
 * | window/workDoneProgress/create           | broker (null)             | broker (null)             |
 * | workspace/workspaceFolders               | broker (initialize's)     | broker (initialize's)     |
 * | client/registerCapability                | forwarded, tracked on ok  | broker, tracked (null)    |
 * | client/unregisterCapability              | forwarded, tracked on ok  | broker, tracked (null)    |
 * | workspace/{semanticTokens,inlayHint,inlineValue,codeLens,diagnostic,foldingRange}/refresh
 * |                                          | forwarded                 | broker (null)             |
 * | window/showMessageRequest                | forwarded                 | broker (null: no action)  |
 * | window/showDocument                      | forwarded                 | broker ({success:false})  |
 * | workspace/applyEdit                      | forwarded                 | broker ({applied:false, failureReason}) |
 * | anything else                            | broker: -32601 MethodNotFound                         |
 *
 * Forwarded requests get a browser-facing id of the broker's own (per lease counter), mapped back
 * to the server's id when the browser answers. Those still unanswered when the generation ends are
 * answered by the broker, as if no browser had been attached.
 */
import { RpcErrorCode } from '@kandev/protocol';
import { errorResponse, resultResponse } from './jsonrpc.js';
import type { RegistrationSet } from './registrations.js';
import { configurationResult } from './settings.js';
import type { Effect, JsonRpcId, JsonRpcMessage } from './types.js';

const REFRESH_METHODS = [
  'workspace/semanticTokens/refresh',
  'workspace/inlayHint/refresh',
  'workspace/inlineValue/refresh',
  'workspace/codeLens/refresh',
  'workspace/diagnostic/refresh',
  'workspace/foldingRange/refresh',
];

const FORWARDED_WHEN_ATTACHED = new Set<string>([
  'client/registerCapability',
  'client/unregisterCapability',
  'window/showMessageRequest',
  'window/showDocument',
  'workspace/applyEdit',
  ...REFRESH_METHODS,
]);

/** At most this many server requests wait on a browser; beyond it the broker answers itself. */
export const MAX_FORWARDED_SERVER_REQUESTS = 256;

export type ServerRequestRoute = 'browser' | 'broker';

export function routeServerRequest(method: string, browserCanAnswer: boolean): ServerRequestRoute {
  return browserCanAnswer && FORWARDED_WHEN_ATTACHED.has(method) ? 'browser' : 'broker';
}

export interface LocalAnswerContext {
  /** The lease language's JSON from the owner's persisted settings. */
  config: Record<string, unknown> | undefined;
  registrations: RegistrationSet;
  workspaceFolders: unknown;
}

/** The broker's own answer to a server request, applying its effects (registrations). */
export function answerLocally(id: JsonRpcId, method: string, params: unknown, ctx: LocalAnswerContext): JsonRpcMessage {
  switch (method) {
    case 'workspace/configuration':
      return resultResponse(id, configurationResult(params, ctx.config));
    case 'client/registerCapability':
      return ctx.registrations.register(params)
        ? resultResponse(id, null)
        : errorResponse(id, RpcErrorCode.RequestFailed, 'registration exceeds the retained state limit');
    case 'client/unregisterCapability':
      ctx.registrations.unregister(params);
      return resultResponse(id, null);
    case 'window/workDoneProgress/create':
    case 'window/showMessageRequest':
      return resultResponse(id, null);
    case 'window/showDocument':
      return resultResponse(id, { success: false });
    case 'workspace/applyEdit':
      // Edits live in the browser's models and go through its conflict checks: with no browser
      // attached nobody can apply them, and saying so lets the server's command fail cleanly.
      return resultResponse(id, { applied: false, failureReason: 'no editor is attached to apply the edit' });
    case 'workspace/workspaceFolders':
      return resultResponse(id, ctx.workspaceFolders ?? null);
    default:
      if (REFRESH_METHODS.includes(method)) return resultResponse(id, null);
      return errorResponse(id, RpcErrorCode.MethodNotFound, `Unhandled method ${method}`);
  }
}

/**
 * After a registration changed (by the broker's answer or the browser's): the task host gets the
 * server's file watchers whenever they differ from what it has (registrations.ts).
 */
export function handOverWatchers(leaseId: string, registrations: RegistrationSet, push: (effect: Effect) => void): void {
  const watchers = registrations.takeChangedWatchers();
  if (watchers) push({ type: 'watchFiles', leaseId, watchers });
}

/** A browser answered a forwarded request successfully: apply what the broker tracks. */
export function applyBrowserSuccess(method: string, params: unknown, registrations: RegistrationSet): void {
  if (method === 'client/registerCapability') registrations.register(params);
  else if (method === 'client/unregisterCapability') registrations.unregister(params);
}

export interface ForwardedServerRequest {
  /** The id the browser sees. */
  clientId: number;
  /** The id the server used. */
  serverId: JsonRpcId;
  method: string;
  params: unknown;
  generation: number;
}

/** Server requests waiting on a browser answer, by the browser-facing id. */
export class ForwardedServerRequests {
  private readonly byClientId = new Map<number, ForwardedServerRequest>();
  private nextClientId = 1;

  get size(): number {
    return this.byClientId.size;
  }

  get full(): boolean {
    return this.byClientId.size >= MAX_FORWARDED_SERVER_REQUESTS;
  }

  add(serverId: JsonRpcId, method: string, params: unknown, generation: number): ForwardedServerRequest {
    const entry = { clientId: this.nextClientId++, serverId, method, params, generation };
    this.byClientId.set(entry.clientId, entry);
    return entry;
  }

  /** The entry a browser response settles, only for the generation it was sent to. */
  take(clientId: JsonRpcId, generation: number): ForwardedServerRequest | undefined {
    if (typeof clientId !== 'number') return undefined;
    const entry = this.byClientId.get(clientId);
    if (!entry || entry.generation !== generation) return undefined;
    this.byClientId.delete(clientId);
    return entry;
  }

  /** The pending entry for a server id (the server cancelling its own request). */
  byServerId(serverId: JsonRpcId): ForwardedServerRequest | undefined {
    for (const entry of this.byClientId.values()) if (entry.serverId === serverId) return entry;
    return undefined;
  }

  drainGeneration(generation: number): ForwardedServerRequest[] {
    const drained = [...this.byClientId.values()].filter((e) => e.generation === generation);
    for (const entry of drained) this.byClientId.delete(entry.clientId);
    return drained;
  }
}
