/** Limits shared by every hop (docs/architecture.md section 3). One place, so no hop disagrees with another. */
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
/**
 * Files the editor opens: up to this many bytes, streamed on every hop (agentctl reads and sends
 * in chunks, the backend passes the stream on). Larger files are refused with 413 `too_large` and
 * the limit in the error's `limit` field, so the page can say why and what to do.
 */
export const MAX_OPEN_FILE_BYTES = 64 * 1024 * 1024;
/** A write body may be JSON-escaped content: room for twice the largest file, refused unread beyond. */
export const MAX_WRITE_BODY_BYTES = 2 * MAX_OPEN_FILE_BYTES + 1024 * 1024;
/**
 * A save sent as the file's raw bytes (FILE_BYTES_CONTENT_TYPE): at most this many bytes, the most
 * the editor opens. Every hop streams the body and counts while it streams, so a larger one is
 * refused with 413 `too_large` and `limit` (TooLargeResponse) after at most this many bytes,
 * never buffered whole; agentctl stages it in a temp file and renames it over the file.
 */
export const MAX_SAVE_BYTES = MAX_OPEN_FILE_BYTES;
/**
 * The older JSON form of a save (`{"content","baseVersion"}`, for scripts) is parsed whole, so it
 * stays small; the editor sends raw bytes.
 */
export const MAX_JSON_SAVE_BODY_BYTES = 1024 * 1024;
/**
 * A streamed save's inactivity bound on the backend's hop to agentctl: restarted by every chunk,
 * so a slow large upload is never cut by a whole-request timer, while a stalled one is.
 */
export const SAVE_IDLE_TIMEOUT_MS = 30_000;
/**
 * Above either bound the editor opens a file in large-file mode: no language server sync (a didOpen
 * must stay well inside LSP_MAX_BODY_BYTES once JSON-escaped), no syntax colouring, folding or
 * minimap, and a one-line notice that says so and why.
 */
export const LARGE_FILE_BYTES = 8 * 1024 * 1024;
export const LARGE_FILE_LINES = 300_000;
