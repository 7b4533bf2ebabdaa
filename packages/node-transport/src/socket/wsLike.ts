/** The part of a `ws` WebSocket a FrameSocket uses, so tests can hand in a fake. */
export interface WsLike {
  /** Text frames only: bytes are sent as a text frame (`binary: false`), so they must be UTF-8. */
  send(data: string | Uint8Array, options: { binary: false; fin?: boolean }, cb: (err?: Error) => void): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  pause(): void;
  resume(): void;
  on(event: 'message', listener: (data: unknown, isBinary: boolean) => void): unknown;
  on(event: 'close', listener: (code: number) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'pong', listener: () => void): unknown;
  /** The peer's own pings (ws answers them itself): a peer that pings is alive, whatever it reads. */
  on(event: 'ping', listener: () => void): unknown;
  off?(event: 'pong', listener: () => void): unknown;
  ping?(): void;
}

/** A frame read from the peer: a text frame with its raw bytes (no copy), or the fact of a binary one. */
export type IncomingFrame = { text: string; bytes: Buffer } | { binary: true };

/** Close code recorded when a stuck or dead peer is dropped without a close handshake. */
export const TERMINATED = 1006;

/** What `ws` puts in its close frame for a protocol error it detected (see ws/lib/receiver.js). */
const WS_ERROR_CLOSE_CODES: Record<string, number> = {
  WS_ERR_UNSUPPORTED_MESSAGE_LENGTH: 1009,
  WS_ERR_INVALID_UTF8: 1007,
};

/** The close code `ws` sent for one of its protocol errors, or undefined for any other error. */
export function wsProtocolErrorCloseCode(err: Error): number | undefined {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('WS_ERR_')) return undefined;
  return WS_ERROR_CLOSE_CODES[code] ?? 1002;
}

export function bytesOf(data: unknown): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data as Buffer[]);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  return Buffer.from(String(data), 'utf8');
}
