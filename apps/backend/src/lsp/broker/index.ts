/** The lease broker's public surface (see README.md). */
export { LeaseBroker, DEFAULT_REAP_WAIT_MS, DEFAULT_SHUTDOWN_WAIT_MS, type LeaseView } from './broker.js';
export { DEFAULT_MAX_LEASES, defaultMaxLeases, parseMaxLeases, SERVER_MEMORY_BUDGET_BYTES } from './capacity.js';
export { DETACHED_DEADLINE_MS } from './deadlines.js';
export { RpcErrorCode } from '@kandev/protocol';
export type { BrokerCounters, BrokerMetrics } from './metrics.js';
export { ATTACH_REASONS, DETACH_REASONS, END_REASONS, EXIT_REASONS, LOG_EVENTS, LOG_REASONS } from './types.js';
export type { PersistableLease } from './adoption.js';
export type {
  AttachmentEvent,
  BrowserMessageEvent,
  LifecycleEvent,
  ServerEvent,
  AdoptedLeaseState,
  LeaseAdopted,
  AttachmentId,
  BrokerEvent,
  BrokerOptions,
  BrowserCloseCode,
  BrowserClosed,
  BrowserConnected,
  BrowserFrameEvent,
  BrowserOutFrame,
  BrowserWriteTimedOut,
  Effect,
  EffectType,
  EndReason,
  JsonRpcId,
  JsonRpcMessage,
  LeaseId,
  LeaseOwnerKind,
  LogEvent,
  LogReason,
  Measure,
  MeasureEffect,
  SessionId,
  SessionStopped,
  SettingsChanged,
  Shutdown,
  TimerFired,
  TimerId,
  UpstreamCloseCode,
  UpstreamClosed,
  UpstreamFrameEvent,
  UserId,
} from './types.js';
