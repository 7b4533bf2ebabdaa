export { FrameSocket, type FrameSocketOptions, type PauseReason } from './socket/frameSocket.js';
export { Keepalive, DEFAULT_KEEPALIVE, type KeepaliveHooks, type KeepaliveTiming } from './socket/keepalive.js';
export { type IncomingFrame, type WsLike, TERMINATED } from './socket/wsLike.js';
export { refuseUpgrade } from './http/refuseUpgrade.js';
export { readBoundedBody, type BoundedBody } from './http/boundedBody.js';
export { waitForListening, type ListeningOutcome, type ListeningWait } from './launch/waitForListening.js';
