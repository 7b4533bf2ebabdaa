/** Limits shared by every hop (DESIGN section 3). One place, so no hop disagrees with another. */
export const LSP_MAX_BODY_BYTES = 16 * 1024 * 1024;
export const LSP_MAX_HEADER_LINE_BYTES = 8 * 1024;
export const LSP_MAX_HEADER_BYTES = 32 * 1024;
/** A WebSocket write that has not drained by then means a stuck peer. */
export const WS_WRITE_DEADLINE_MS = 5_000;
/** A language server that does not take stdin for this long is treated as hung. */
export const STDIN_WRITE_CUTOFF_MS = 30_000;
export const MAX_PENDING_BROWSER_REQUESTS = 256;
export const MAX_REQUEST_ID_BYTES = 256;
export const MAX_TRACKED_REQUEST_STATE_BYTES = 64 * 1024;
export const BROWSER_REQUEST_TIMEOUT_MS = 30_000;
export const MAX_RETAINED_LEASE_STATE_BYTES = 4 * 1024 * 1024;
/** Installer output kept for the install_failed frame: the actionable tail, not the whole log. */
export const MAX_INSTALL_ERROR_BYTES = 8 * 1024;
/**
 * Deepest nesting of arrays and objects any hop accepts in a JSON text. Deeper text is refused
 * before JSON.parse (jsonDepth.ts), so nothing that walks parsed JSON recursively (JSON.stringify,
 * settings comparison, progress) can overflow the stack. LSP messages nest a few dozen levels.
 */
export const MAX_JSON_DEPTH = 256;
/**
 * Unwritten bytes queued on one outgoing hop above which that hop stops reading its source (a
 * paused WebSocket or a paused stdout), so backpressure reaches the server's stdout instead of the
 * heap. Reading resumes at the low watermark. One frame may exceed it (a frame is never split).
 */
export const OUTGOING_HIGH_WATERMARK_BYTES = 1024 * 1024;
export const OUTGOING_LOW_WATERMARK_BYTES = 256 * 1024;
/**
 * Liveness of both WebSocket hops (browser-backend, backend-agentctl): a ping every interval; a
 * peer that let this many pings in a row go unanswered is dead. Worst case to notice: interval x
 * (misses + 1), 30 s with the defaults.
 */
export const WS_PING_INTERVAL_MS = 10_000;
export const WS_PING_MAX_MISSES = 2;
/** The end of a crashed server's stderr carried to the browser (server_exited, restarting). */
export const SERVER_STDERR_TAIL_BYTES = 8 * 1024;
/** A server that exits unexpectedly while leased is restarted at most this often in the window. */
export const SERVER_RESTART_LIMIT = 5;
export const SERVER_RESTART_WINDOW_MS = 3 * 60_000;
