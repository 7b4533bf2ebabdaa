/** WebSocket close codes of the LSP streams. The browser maps each to copy (its locale catalogs). */
export const CloseCode = {
  Normal: 1000,
  GoingAway: 1001,
  BinaryMissingInstallable: 4001,
  Unavailable: 4002,
  InstallFailed: 4003,
  ExecutorUnsupported: 4004,
  CapacityReached: 4005,
  ServerExited: 4006,
  NoInstaller: 4007,
  StartFailed: 4008,
  TransportFailure: 4009,
} as const;

export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];

const KNOWN = new Set<number>(Object.values(CloseCode));

/**
 * Reserved codes: a peer never sends them, the local WebSocket stack reports them (1005 a close
 * frame without a code, 1006 a connection that died without one, 1015 a failed TLS handshake).
 */
export const ReservedCloseCode = { NoStatus: 1005, Abnormal: 1006, TlsHandshake: 1015 } as const;

/** A standard code a peer's stack may send and this project never does (1011: the peer failed). */
export const PeerCloseCode = { InternalError: 1011 } as const;

/**
 * Codes 1005, 1006 and 1015 are reserved: a peer never sends them, the local stack reports them
 * when the connection died without a close frame. They, and anything we do not know, mean
 * "the transport failed" to the browser, which then treats the loss as transient.
 */
export function normalizeCloseCode(code: number): CloseCode {
  if (KNOWN.has(code)) return code as CloseCode;
  return CloseCode.TransportFailure;
}

/**
 * Bad input from a peer closes that connection with a standard code: 1007 for a frame that is not
 * one JSON-RPC message or control frame, 1009 for one over the size bound. They are defects, not
 * transient losses, but the browser still sees them as a transport failure (4009) after normalizing.
 */
export const BadInputCloseCode = { InvalidPayload: 1007, MessageTooBig: 1009 } as const;

/** Codes this project may put in a close frame; the 4000-4999 range is the application's own. */
const SENDABLE_STANDARD = new Set<number>([CloseCode.Normal, CloseCode.GoingAway, BadInputCloseCode.InvalidPayload, BadInputCloseCode.MessageTooBig]);
const APPLICATION_RANGE = { first: 4000, last: 4999 } as const;

/** A close code that may be sent in a close frame (never a reserved one). */
export function isSendableCloseCode(code: number): boolean {
  return SENDABLE_STANDARD.has(code) || (code >= APPLICATION_RANGE.first && code <= APPLICATION_RANGE.last);
}
