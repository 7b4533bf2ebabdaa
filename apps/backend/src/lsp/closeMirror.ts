import { normalizeCloseCode, type CloseCode } from '@kandev/protocol';

/**
 * The code the browser gets when the task-host stream closed with `upstreamCode`. Known codes pass
 * through (4001 missing binary, 4006 server exited, 1001 torn down, ...); reserved codes (1005,
 * 1006, 1015) and anything unknown become 4009, a transport failure the browser may retry.
 * Reason text is never mirrored: task-host prose stays in task-host logs.
 */
export function browserCloseFor(upstreamCode: number): CloseCode {
  return normalizeCloseCode(upstreamCode);
}
