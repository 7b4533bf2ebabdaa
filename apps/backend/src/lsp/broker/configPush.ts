/**
 * Settings reaching live servers: a user's saved settings are recorded, and every lease whose
 * effective configuration changed is told (`workspace/didChangeConfiguration`, C12, S23) and gets
 * its trace level again.
 */
import type { UserSettings } from '@kandev/protocol';
import type { Lease } from './lease.js';
import type { Outbox } from './outbox.js';
import { leaseConfig } from './serverRpc.js';
import { configFingerprint, didChangeConfiguration } from './settings.js';
import { contextFor, type BrokerState } from './state.js';
import { setTraceIfChanged } from './trace.js';
import type { UserId } from './types.js';

/** Records a user's settings; a real change reaches every affected initialized lease. */
export function observeSettings(state: BrokerState, userId: UserId, settings: UserSettings, out: Outbox): void {
  if (!state.settings.observe(userId, settings)) return;
  for (const lease of state.table.ofUser(userId)) {
    if (lease.phase.kind !== 'running' || !lease.init.initializedSent) continue;
    pushConfigIfChanged(state, lease, out);
  }
  for (const lease of state.table.ofUser(userId)) setTraceIfChanged(contextFor(state, out), lease);
}

/** Sends the lease's server its configuration when it differs from what the server last heard. */
export function pushConfigIfChanged(state: BrokerState, lease: Lease, out: Outbox): void {
  const config = leaseConfig({ settings: state.settings }, lease);
  const fingerprint = configFingerprint(config);
  if (fingerprint === lease.configFingerprint) return;
  lease.configFingerprint = fingerprint;
  out.toServer(lease.id, didChangeConfiguration(config));
}
