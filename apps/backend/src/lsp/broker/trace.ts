/**
 * The `trace` a lease's server is asked for: the owner's per-language setting (off, messages,
 * verbose). It travels in the `initialize` the broker forwards and, when the setting changes
 * later, as `$/setTrace` to every initialized server of that user and language.
 */
import { DEFAULT_TRACE_LEVEL, isRecord, type TraceLevel } from '@kandev/protocol';
import type { EventContext } from './context.js';
import { notification } from './jsonrpc.js';
import type { Lease } from './lease.js';

export function leaseTraceLevel(ctx: Pick<EventContext, 'settings'>, lease: Lease): TraceLevel {
  return ctx.settings.traceLevel(lease.userId, lease.language) ?? DEFAULT_TRACE_LEVEL;
}

/** The browser's `initialize` params with the owner's trace level in place of whatever it said. */
export function withTrace(params: unknown, level: TraceLevel): unknown {
  return isRecord(params) ? { ...params, trace: level } : params;
}

/** After a settings change: `$/setTrace` to an initialized server whose level differs from the one it was told. */
export function setTraceIfChanged(ctx: EventContext, lease: Lease): void {
  if (lease.phase.kind !== 'running' || !lease.init.initializedSent) return;
  const level = leaseTraceLevel(ctx, lease);
  if ((lease.traceLevel ?? DEFAULT_TRACE_LEVEL) === level) return;
  lease.traceLevel = level;
  ctx.out.toServer(lease.id, notification('$/setTrace', { value: level }));
}
