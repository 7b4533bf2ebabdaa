export { FrameSocket, type FrameSocketOptions, type PauseReason } from './socket/frameSocket.js';
export { Keepalive, DEFAULT_KEEPALIVE, type KeepaliveHooks, type KeepaliveTiming } from './socket/keepalive.js';
export { type IncomingFrame, type WsLike, TERMINATED } from './socket/wsLike.js';
export { refuseUpgrade } from './http/refuseUpgrade.js';
export { readBoundedBody, type BoundedBody } from './http/boundedBody.js';
export { streamedBody, type StreamedBody } from './http/streamedBody.js';
export { waitForListening, type ListeningOutcome, type ListeningWait } from './launch/waitForListening.js';
export { RotatingFile, DEFAULT_LOG_MAX_BYTES, type RotatingFileOptions } from './log/rotatingFile.js';
export { pruneOldLogs } from './log/retention.js';
export { createLogger, silentLogger, type Logger, type LoggerOptions, type LogLevel, type LogTarget, type OwnedLogger } from './log/logger.js';
export { boundFields, errorFields, REDACTED, MAX_LOG_FIELD_CHARS, type LogFields, type LogValue } from './log/fields.js';
export {
  startHeapProbe,
  answerHeapProbe,
  heapProbeFiles,
  HEAP_PROBE_ENV,
  HEAP_PROBE_SIGNAL,
  type HeapProbeAnswer,
  type HeapProbeRequest,
} from './debug/heapProbe.js';
