import { requestDeadlineOf } from '@kandev/protocol';
import { EndpointClosedError, ErrorCodes, ResponseError } from './jsonRpc.js';

/**
 * When a request the person asked for gets no answer, they are told why (docs/editing.md, "When a
 * request fails"); otherwise the suggestion list or the jump simply never comes. This decides
 * which failures are worth telling and what kind they are; the words are in the locale catalogs
 * (faults `requestFailed`), and ServerMessages shows them without piling them up.
 *
 * Only the methods below are announced: what the person asked for and waits to see. Everything
 * else stays quiet: the editor's own requests (tokens, outline, folding, hints, pull diagnostics;
 * they come back by themselves), `completionItem/resolve` (a detail of the list already shown),
 * and rename, whose refusal Monaco already shows where the person typed the new name (in the
 * same words a toast would use: see `failureOf`).
 */
export const ANNOUNCED_REQUESTS = {
  'textDocument/completion': 'completion',
  'textDocument/hover': 'hover',
  'textDocument/signatureHelp': 'signatureHelp',
  'textDocument/definition': 'definition',
  'textDocument/declaration': 'declaration',
  'textDocument/typeDefinition': 'typeDefinition',
  'textDocument/implementation': 'implementation',
  'textDocument/references': 'references',
} as const satisfies Record<string, string>;

/** A request the person asked for: the announced ones, and rename (told in its own box). */
export type AskedFeature = (typeof ANNOUNCED_REQUESTS)[keyof typeof ANNOUNCED_REQUESTS] | 'rename';

/**
 * - `timeout`: the broker's request deadline (`deadlineMs`) passed; the server may still be working on it;
 * - `error`: the server answered with an error, `detail` being its own message (may be empty);
 * - `lost`: the connection ended while the request waited.
 */
export type RequestFailure =
  | { feature: AskedFeature; reason: 'timeout'; deadlineMs: number }
  | { feature: AskedFeature; reason: 'error'; detail: string }
  | { feature: AskedFeature; reason: 'lost' };

/**
 * Error codes that mean "this answer no longer matters", not "this failed": the document changed
 * under the request (the person typed on), or the server dropped the work and expects it to be
 * asked again. The person's own cancellation never reaches here as a response: the endpoint drops
 * a cancelled request's late reply and rejects it with RequestCancelledError.
 */
const SUPERSEDED_CODES: ReadonlySet<number> = new Set([ErrorCodes.ContentModified, ErrorCodes.ServerCancelled, ErrorCodes.RequestCancelled]);

/**
 * What to tell the person about one request's rejection, or undefined to say nothing.
 * `connectionLost`: the connection ended without anybody asking (not a Stop, a tab switch or a
 * release): only then is an EndpointClosedError a loss worth telling.
 */
export function requestFailureOf(method: string, error: unknown, connectionLost: boolean): RequestFailure | undefined {
  const feature = (ANNOUNCED_REQUESTS as Readonly<Record<string, AskedFeature>>)[method];
  return feature ? failureOf(feature, error, connectionLost) : undefined;
}

/** What a rejection of a request for `feature` means to the person, or undefined when it means nothing. */
export function failureOf(feature: AskedFeature, error: unknown, connectionLost: boolean): RequestFailure | undefined {
  if (error instanceof ResponseError) {
    const deadlineMs = error.code === ErrorCodes.RequestCancelled ? requestDeadlineOf(error.data) : undefined;
    if (deadlineMs !== undefined) return { feature, reason: 'timeout', deadlineMs };
    if (SUPERSEDED_CODES.has(error.code)) return undefined;
    return { feature, reason: 'error', detail: error.message.trim() };
  }
  if (error instanceof EndpointClosedError) return connectionLost ? { feature, reason: 'lost' } : undefined;
  // RequestCancelledError (superseded by the person) and anything that is not an answer.
  return undefined;
}

/** Two failures are the same toast when they would read the same. */
export function sameFailure(a: RequestFailure, b: RequestFailure): boolean {
  if (a.feature !== b.feature || a.reason !== b.reason) return false;
  if (a.reason === 'timeout' && b.reason === 'timeout') return a.deadlineMs === b.deadlineMs;
  if (a.reason === 'error' && b.reason === 'error') return a.detail === b.detail;
  return true;
}
