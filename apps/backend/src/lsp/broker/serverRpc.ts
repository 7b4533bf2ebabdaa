/**
 * JSON-RPC from the server: responses routed back to the generation that asked (or to the single
 * initialize exchange, or to the release handshake), server requests answered or forwarded, and
 * notifications tracked (progress) and delivered when a browser can take them (diagnostics gated).
 */
import { isRecord, languageDescriptor, outputLineOf, relayedAsIs, relayedWithId, type LanguageId } from '@kandev/protocol';
import type { ServerInitializeOutcome } from './initialize.js';
import { classify, isJsonRpcId, notification, request, withId } from './jsonrpc.js';
import { leaseTrust, shutdownServerIdOf, type Lease } from './lease.js';
import { afterShutdown } from './release.js';
import { answerLocally, handOverWatchers, routeServerRequest } from './serverRequests.js';
import { configFingerprint, didChangeConfiguration } from './settings.js';
import type { EventContext } from './context.js';
import type { JsonRpcId, JsonRpcMessage, RawRpcFrame } from './types.js';
import { guardConfig } from './workspaceTrust.js';
import { outputFrame } from './serverOutput.js';

/** Server notifications the broker reads (progress, diagnostics gating, cancel translation, output). */
const OWNED_SERVER_NOTIFICATIONS = new Set(['$/progress', 'textDocument/publishDiagnostics', '$/cancelRequest', 'window/logMessage', '$/logTrace']);

/** Notifications the lease keeps as Output lines (serverOutput.ts), attached or not. */
export function isOutputNotification(method: string): boolean {
  return method === 'window/logMessage' || method === '$/logTrace';
}

/**
 * A server message the broker only passes on is relayed as text, without being decoded: a
 * response to a browser request (its id spliced back to the browser's) and a notification it does
 * not read. Returns false for everything else, which the caller decodes and routes in full: server
 * requests, owned notifications, error responses, the initialize and shutdown answers, anything
 * while the lease is not running. Must agree with `routeServerMessage` on every message it takes.
 */
export function relayServerRaw(ctx: EventContext, lease: Lease, frame: RawRpcFrame): boolean {
  const { envelope } = frame;
  if (lease.phase.kind !== 'running') return false;
  if (envelope.method === undefined) {
    // Only results: an error's shape (its `error` must be an object) needs the decoded message.
    if (!frame.scan.hasResult || frame.scan.hasError || typeof envelope.id !== 'number' || !envelope.idSpan) return false;
    const id = envelope.id;
    const init = lease.init.state;
    if (shutdownServerIdOf(lease) === id || (init.kind === 'pending' && init.serverId === id)) return false;
    const entry = lease.requests.take(id);
    if (!entry) return true; // its generation ended or it timed out: the late reply is dropped
    ctx.out.cancel(entry.timerId);
    const attachment = lease.attachment;
    if (attachment && attachment.generation === entry.generation) ctx.out.relayToBrowser(attachment.id, relayedWithId(frame, envelope.idSpan, entry.browserId));
    return true;
  }
  if (envelope.hasIdMember || OWNED_SERVER_NOTIFICATIONS.has(envelope.method)) return false;
  const attachment = lease.attachment;
  if (attachment) ctx.out.relayToBrowser(attachment.id, relayedAsIs(frame));
  return true; // nobody to deliver to: drained
}

export function routeServerMessage(ctx: EventContext, lease: Lease, message: JsonRpcMessage): void {
  const m = classify(message);
  switch (m.kind) {
    case 'response':
      return serverResponse(ctx, lease, m.id, m.ok, message);
    case 'request':
      return serverRequest(ctx, lease, m.id, m.method, m.params);
    case 'notification':
      return serverNotification(ctx, lease, m.method, m.params, message);
    case 'malformed':
      return;
  }
}

/** The language config this lease's server is told: the owner's settings under the lease's trust. */
export function leaseConfig(ctx: Pick<EventContext, 'settings'>, lease: Lease): Record<string, unknown> | undefined {
  return guardConfig(leaseTrust(lease), ctx.settings.languageConfig(lease.userId, lease.language));
}

/** The broker's own `initialized` (no browser will send it); remembers the config the server has. */
export function sendInitialized(ctx: EventContext, lease: Lease): void {
  ctx.out.toServer(lease.id, notification('initialized', {}));
  pushInitialConfiguration(ctx, lease);
}

/**
 * Servers that take their settings by push (their descriptor says `configuration: 'push'`): they
 * never ask with `workspace/configuration`, or ask only for some of it. Every other server asks,
 * and a push it did not need would only make it ask again.
 */
function takesPushedConfiguration(language: LanguageId): boolean {
  return languageDescriptor(language).server.configuration === 'push';
}

/**
 * Right after `initialized`: push-model servers get the settings they start with once, as VS
 * Code's own client does. Nothing is sent when there is no configuration at all. The config is the
 * lease's: the owner's settings under the lease's trust (leaseConfig).
 */
export function pushInitialConfiguration(ctx: EventContext, lease: Lease): void {
  const config = leaseConfig(ctx, lease);
  lease.configFingerprint = configFingerprint(config);
  if (config !== undefined && takesPushedConfiguration(lease.language)) ctx.out.toServer(lease.id, didChangeConfiguration(config));
}

/** Server requests an ended generation never answered: the broker answers them. */
export function answerForwardedLocally(ctx: EventContext, lease: Lease, generation: number): void {
  for (const entry of lease.serverRequests.drainGeneration(generation)) {
    ctx.out.toServer(lease.id, localAnswer(ctx, lease, entry.serverId, entry.method, entry.params));
  }
  handOverWatchers(lease.id, lease.registrations, (e) => ctx.out.push(e));
}

function localAnswer(ctx: EventContext, lease: Lease, id: JsonRpcId, method: string, params: unknown): JsonRpcMessage {
  return answerLocally(id, method, params, {
    config: leaseConfig(ctx, lease),
    registrations: lease.registrations,
    workspaceFolders: lease.init.workspaceFolders,
  });
}

function serverResponse(ctx: EventContext, lease: Lease, id: JsonRpcId, ok: boolean, message: JsonRpcMessage): void {
  if (typeof id !== 'number') return; // every id the broker sends is a number
  if (shutdownServerIdOf(lease) === id) return afterShutdown(lease, ctx.out, ctx.timing);
  if (lease.phase.kind !== 'running') return;
  const init = lease.init.onServerResponse(id, ok, message.result);
  if (init.handled) return initializeAnswered(ctx, lease, init, message);
  const entry = lease.requests.take(id);
  if (!entry) return; // its generation ended or it timed out: the late reply is dropped
  ctx.out.cancel(entry.timerId);
  const attachment = lease.attachment;
  if (attachment && attachment.generation === entry.generation) ctx.out.toBrowser(attachment.id, withId(message, entry.browserId));
}

function initializeAnswered(ctx: EventContext, lease: Lease, outcome: Extract<ServerInitializeOutcome, { handled: true }>, message: JsonRpcMessage): void {
  const attachment = lease.attachment;
  const waiter = outcome.waiter;
  if (waiter && attachment && attachment.generation === waiter.generation) {
    ctx.out.toBrowser(attachment.id, withId(message, waiter.browserId));
  } else if (waiter && outcome.ok && lease.init.onDetach(waiter.generation).sendInitialized) {
    sendInitialized(ctx, lease); // defensive: a waiter that is gone never blocks `initialized`
  }
  if (outcome.sendInitialized) sendInitialized(ctx, lease);
}

function serverRequest(ctx: EventContext, lease: Lease, id: JsonRpcId, method: string, params: unknown): void {
  const attachment = lease.phase.kind === 'running' ? lease.attachment : undefined;
  let route = routeServerRequest(method, attachment !== undefined && !lease.serverRequests.full);
  if (route === 'browser' && method === 'client/registerCapability' && !lease.registrations.fits(params)) route = 'broker';
  if (route === 'browser' && attachment) {
    const entry = lease.serverRequests.add(id, method, params, attachment.generation);
    return ctx.out.toBrowser(attachment.id, request(entry.clientId, method, params));
  }
  ctx.out.toServer(lease.id, localAnswer(ctx, lease, id, method, params));
  if (method === 'client/registerCapability' || method === 'client/unregisterCapability')
    handOverWatchers(lease.id, lease.registrations, (e) => ctx.out.push(e));
}

function serverNotification(ctx: EventContext, lease: Lease, method: string, params: unknown, message: JsonRpcMessage): void {
  if (method === '$/progress') lease.progress.apply(params, ctx.out.now);
  const attachment = lease.attachment;
  if (isOutputNotification(method)) {
    // Kept with the lease and sent as a server_output line, never relayed as is: a tab that
    // attaches later gets the same lines, numbered, so it never shows one twice.
    const line = outputLineOf(method, params);
    if (!line) return;
    const kept = lease.output.append(line, ctx.out.now);
    if (attachment) ctx.out.toBrowser(attachment.id, outputFrame([kept]));
    return;
  }
  if (!attachment || lease.phase.kind !== 'running') return; // drained: nobody to deliver to
  if (method === 'textDocument/publishDiagnostics') {
    const verdict = attachment.documents.diagnostics(params);
    if (verdict.verdict === 'forward') ctx.out.toBrowser(attachment.id, { ...message, params: verdict.params });
    return;
  }
  if (method === '$/cancelRequest') {
    const serverId = isRecord(params) ? params.id : undefined;
    const entry = isJsonRpcId(serverId) ? lease.serverRequests.byServerId(serverId) : undefined;
    if (entry && entry.generation === attachment.generation) {
      ctx.out.toBrowser(attachment.id, notification('$/cancelRequest', { id: entry.clientId }));
    }
    return;
  }
  ctx.out.toBrowser(attachment.id, message);
}
