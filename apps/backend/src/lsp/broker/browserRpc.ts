/**
 * JSON-RPC from the attached browser: requests get server-facing ids (bounded, timed), the
 * initialize exchange is the broker's, document notifications get server-facing versions,
 * `$/cancelRequest` is translated, and answers to forwarded server requests are mapped back.
 */
import { isRecord, relayedAsIs, relayedWithId, RpcErrorCode } from '@kandev/protocol';
import { classify, errorResponse, isJsonRpcId, notification, resultResponse, withId } from './jsonrpc.js';
import { allocServerId, type Attachment, type Lease } from './lease.js';
import type { TrackRefusal } from './requestMap.js';
import { applyBrowserSuccess, handOverWatchers } from './serverRequests.js';
import { pushInitialConfiguration } from './serverRpc.js';
import { withInitializationOptions } from '@kandev/protocol';
import { leaseTrust } from './lease.js';
import { guardInitialize } from './workspaceTrust.js';
import { configuredTraceLevel, withTrace } from './trace.js';
import type { EventContext } from './context.js';
import type { JsonRpcId, JsonRpcMessage, RawText } from './types.js';

/**
 * `raw`, when the wiring kept it, is the message's original text: what the broker passes on
 * unchanged (or with only its id replaced) is relayed as that text, never re-encoded.
 */
export function routeBrowserMessage(ctx: EventContext, lease: Lease, attachment: Attachment, message: JsonRpcMessage, raw?: RawText): void {
  const m = classify(message);
  switch (m.kind) {
    case 'malformed':
      // Answer what was meant as a request (id null when its id is unusable); never answer a response.
      if ('method' in message) ctx.out.toBrowser(attachment.id, errorResponse(m.id ?? null, RpcErrorCode.InvalidRequest, 'malformed message'));
      return;
    case 'response':
      return browserAnswered(ctx, lease, attachment, m.id, message);
    case 'request':
      return browserRequest(ctx, lease, attachment, m.id, m.method, m.params, message, raw);
    case 'notification':
      return browserNotification(ctx, lease, attachment, m.method, m.params, message, raw);
  }
}

/** `{"control":"attachment-ready"}`: documents are reopened; held diagnostics may now flow. */
export function attachmentReady(ctx: EventContext, lease: Lease, attachment: Attachment): void {
  if (lease.phase.kind !== 'running') return;
  const flushed = attachment.documents.synchronize();
  ctx.out.toBrowser(attachment.id, { status: 'synchronized' });
  for (const params of flushed) ctx.out.toBrowser(attachment.id, notification('textDocument/publishDiagnostics', params));
}

function browserRequest(
  ctx: EventContext,
  lease: Lease,
  attachment: Attachment,
  id: JsonRpcId,
  method: string,
  params: unknown,
  message: JsonRpcMessage,
  raw?: RawText,
): void {
  const { out } = ctx;
  const reply = (m: JsonRpcMessage) => out.toBrowser(attachment.id, m);
  if (lease.phase.kind !== 'running') return reply(errorResponse(id, RpcErrorCode.ServerNotInitialized, 'the language server has not started'));
  if (method === 'initialize') {
    // The broker, not the browser, decides what may run on the task host (workspaceTrust.ts).
    // Kandev's per-language options (e.g. the JSON server downloads no schema) travel with it; the
    // trust guard runs last so nothing the browser or the defaults say can loosen it.
    const traced = withTrace(withInitializationOptions(lease.language, params), configuredTraceLevel(ctx, lease));
    const guarded = guardInitialize(leaseTrust(lease), traced.params);
    if (!guarded.ok) return reply(errorResponse(id, RpcErrorCode.RequestFailed, guarded.message));
    const outcome = lease.init.onBrowserInitialize(attachment.generation, id, guarded.params, () => allocServerId(lease));
    switch (outcome.action) {
      case 'forward':
        lease.traceLevel = traced.level;
        return out.toServer(lease.id, withId({ ...message, params: guarded.params }, outcome.serverId));
      case 'wait':
        return;
      case 'reply':
        return reply(resultResponse(id, outcome.result));
      case 'reject':
        return reply(errorResponse(id, RpcErrorCode.InvalidRequest, outcome.message));
    }
  }
  // The lease's lifecycle belongs to the release control frame, never to a browser's `shutdown`.
  if (method === 'shutdown') return reply(resultResponse(id, null));
  if (!lease.init.forwarded) return reply(errorResponse(id, RpcErrorCode.ServerNotInitialized, 'initialize first'));
  const serverId = lease.nextServerId;
  const tracked = lease.requests.track(attachment.generation, id, method, serverId, out.now);
  if (!tracked.ok) return reply(refusalResponse(id, tracked.refusal));
  allocServerId(lease);
  tracked.entry.timerId = out.arm({ kind: 'request', leaseId: lease.id, serverId }, ctx.timing.requestTimeoutMs);
  if (raw?.idSpan) out.relayToServer(lease.id, relayedWithId(raw, raw.idSpan, serverId));
  else out.toServer(lease.id, withId(message, serverId));
}

function browserNotification(
  ctx: EventContext,
  lease: Lease,
  attachment: Attachment,
  method: string,
  params: unknown,
  message: JsonRpcMessage,
  raw?: RawText,
): void {
  const { out } = ctx;
  if (lease.phase.kind !== 'running' || method === 'exit') return;
  if (method === 'initialized') {
    if (lease.init.onBrowserInitialized()) {
      out.toServer(lease.id, message);
      pushInitialConfiguration(ctx, lease);
    }
    return;
  }
  if (!lease.init.forwarded) return;
  switch (method) {
    case '$/cancelRequest': {
      const browserId = isRecord(params) ? params.id : undefined;
      const serverId = isJsonRpcId(browserId) ? lease.requests.serverIdFor(attachment.generation, browserId) : undefined;
      if (serverId !== undefined) out.toServer(lease.id, notification('$/cancelRequest', { id: serverId }));
      return;
    }
    case 'workspace/didChangeConfiguration':
      return; // the broker owns settings: it sends this itself on every change
    case 'textDocument/didOpen': {
      const rewritten = attachment.documents.didOpen(params);
      if (rewritten) out.toServer(lease.id, { ...message, params: rewritten });
      return;
    }
    case 'textDocument/didChange': {
      const rewritten = attachment.documents.didChange(params);
      if (rewritten) out.toServer(lease.id, { ...message, params: rewritten });
      return;
    }
    case 'textDocument/didClose':
      if (attachment.documents.didClose(params)) out.toServer(lease.id, message);
      return;
    default:
      if (raw) out.relayToServer(lease.id, relayedAsIs(raw));
      else out.toServer(lease.id, message);
  }
}

/** The browser answered a server request the broker forwarded to it. */
function browserAnswered(ctx: EventContext, lease: Lease, attachment: Attachment, clientId: JsonRpcId, message: JsonRpcMessage): void {
  if (lease.phase.kind !== 'running') return;
  const entry = lease.serverRequests.take(clientId, attachment.generation);
  if (!entry) return;
  if (!('error' in message)) applyBrowserSuccess(entry.method, entry.params, lease.registrations);
  ctx.out.toServer(lease.id, withId(message, entry.serverId));
  handOverWatchers(lease.id, lease.registrations, (e) => ctx.out.push(e));
}

function refusalResponse(id: JsonRpcId, refusal: TrackRefusal): JsonRpcMessage {
  switch (refusal) {
    case 'id_too_large':
      return errorResponse(null, RpcErrorCode.InvalidRequest, 'request id exceeds 256 bytes');
    case 'duplicate_id':
      return errorResponse(id, RpcErrorCode.InvalidRequest, 'request id is already pending');
    case 'too_many_pending':
      return errorResponse(id, RpcErrorCode.RequestFailed, 'too many pending requests');
    case 'tracked_state_full':
      return errorResponse(id, RpcErrorCode.RequestFailed, 'too much pending request state');
  }
}
