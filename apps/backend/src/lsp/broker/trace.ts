/**
 * The `trace` a lease's server is asked for: the owner's per-language setting (off, messages,
 * verbose). A level the person set replaces the `trace` of the `initialize` the broker forwards
 * (and of the one it replays to a restarted server); when the setting changes later, every
 * initialized server of that user and language gets `$/setTrace`. Without a setting the params
 * stay as the browser sent them (it asks for `off`).
 */
import { DEFAULT_TRACE_LEVEL, isRecord, isTraceLevel, type TraceLevel } from '@kandev/protocol';
import type { EventContext } from './context.js';
import { notification } from './jsonrpc.js';
import type { Lease } from './lease.js';

/** The level the owner set for the lease's language, if any. */
export function configuredTraceLevel(ctx: Pick<EventContext, 'settings'>, lease: Lease): TraceLevel | undefined {
  return ctx.settings.traceLevel(lease.userId, lease.language);
}

/**
 * The `initialize` params with the configured level in place of whatever they said, and the level
 * the server is thereby asked for (recorded on the lease by the caller).
 */
export function withTrace(params: unknown, configured: TraceLevel | undefined): { params: unknown; level: TraceLevel } {
  if (!isRecord(params)) return { params, level: DEFAULT_TRACE_LEVEL };
  if (configured === undefined) return { params, level: isTraceLevel(params.trace) ? params.trace : DEFAULT_TRACE_LEVEL };
  return { params: { ...params, trace: configured }, level: configured };
}

/** After a settings change: `$/setTrace` to an initialized server whose level differs from the one it was asked for. */
export function setTraceIfChanged(ctx: EventContext, lease: Lease): void {
  if (lease.phase.kind !== 'running' || !lease.init.initializedSent) return;
  const level = configuredTraceLevel(ctx, lease) ?? DEFAULT_TRACE_LEVEL;
  if ((lease.traceLevel ?? DEFAULT_TRACE_LEVEL) === level) return;
  lease.traceLevel = level;
  ctx.out.toServer(lease.id, notification('$/setTrace', { value: level }));
}
