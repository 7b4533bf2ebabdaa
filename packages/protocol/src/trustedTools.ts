import * as z from 'zod/mini';
import { nonEmptyString, parseWireShape, type WireShapeResult } from './wireShape.js';

/** At most this many workspace files a `refuse_when_build_files` guard reports (agentctl stops looking there). */
export const MAX_REPORTED_BUILD_FILES = 16;
/** At most this many host tools one server is pinned to (a rule names one or two). */
export const MAX_HOST_TOOLS = 8;

export const serverNetworkSchema = z.enum(['off', 'unavailable'], { error: 'must be "off" or "unavailable"' });
/**
 * The server's network while untrusted: `off`, it runs in a network namespace of its own
 * (loopback only, nothing reachable); `unavailable`, this task host could not cut it off
 * (not Linux, bubblewrap missing, or new namespaces refused) and it has the host's network.
 */
export type ServerNetwork = z.infer<typeof serverNetworkSchema>;

const TOOL_PATH = 'must be a non-empty string';
const TOOLS = `must be an object of at most ${MAX_HOST_TOOLS} tool paths`;

/**
 * Task-host tools the backend pins a server to while the task's workspace is not trusted
 * (docs/workspace-trust.md), as agentctl found them outside the workspace, in the ready frame's
 * `trustedTools` (and kept with a persisted lease). Members beyond these are ignored.
 */
export const trustedToolPinsSchema = z.object({
  /**
   * By host tool id (a descriptor's `hostTools[].tool`, e.g. `tsserver`, `python`): the path each
   * probe found. A tool its probe did not find is absent.
   */
  tools: z.optional(
    z
      .record(nonEmptyString('a tool id must be a non-empty string'), nonEmptyString(TOOL_PATH), { error: TOOLS })
      .check(z.refine((tools) => Object.keys(tools).length <= MAX_HOST_TOOLS, { error: TOOLS })),
  ),
  /**
   * The files (workspace-relative) named by the language's `refuse_when_build_files` guard that the
   * server would load and so run. Non-empty: the backend refuses `initialize` while untrusted.
   */
  buildFiles: z.optional(
    z
      .array(nonEmptyString('a build file must be a non-empty string'), { error: 'must be an array of workspace-relative paths' })
      .check(z.maxLength(MAX_REPORTED_BUILD_FILES, { error: `must list at most ${MAX_REPORTED_BUILD_FILES} files` })),
  ),
  network: z.optional(serverNetworkSchema),
});
export type TrustedToolPins = z.infer<typeof trustedToolPinsSchema>;

/** `trustedTools` of a ready frame or a persisted lease; `source` names it in the error. */
export function parseTrustedToolPins(value: unknown, source: string): WireShapeResult<TrustedToolPins> {
  return parseWireShape(trustedToolPinsSchema, value, `${source} trustedTools`);
}
