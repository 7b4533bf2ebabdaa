export { FrameSocket, type FrameSocketOptions, type PauseReason } from './socket/frameSocket.js';
export { Keepalive, DEFAULT_KEEPALIVE, type KeepaliveHooks, type KeepaliveTiming } from './socket/keepalive.js';
export { type IncomingFrame, type WsLike, TERMINATED } from './socket/wsLike.js';
export { refuseUpgrade } from './http/refuseUpgrade.js';
export { readBoundedBody, type BoundedBody } from './http/boundedBody.js';
export { waitForListening, type ListeningOutcome, type ListeningWait } from './launch/waitForListening.js';
export { createLogger, silentLogger, type Logger, type LoggerOptions, type LogLevel, type LogTarget, type OwnedLogger } from './log/logger.js';
export { boundFields, errorFields, REDACTED, MAX_LOG_FIELD_CHARS, type LogFields, type LogValue } from './log/fields.js';
