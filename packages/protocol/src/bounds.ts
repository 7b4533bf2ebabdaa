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
/** The end of a crashed server's stderr carried to the browser (server_exited, restarting). */
export const SERVER_STDERR_TAIL_BYTES = 8 * 1024;
/** A server that exits unexpectedly while leased is restarted at most this often in the window. */
export const SERVER_RESTART_LIMIT = 5;
export const SERVER_RESTART_WINDOW_MS = 3 * 60_000;
