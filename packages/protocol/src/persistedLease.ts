import * as z from 'zod/mini';
import { isLanguageId, type LanguageId } from './languages/index.js';
import { workspaceIdentitySchema } from './readyFrame.js';
import { trustedToolPinsSchema } from './trustedTools.js';
import { nonEmptyString, parseWireShape, type WireShapeResult } from './wireShape.js';

/**
 * A live lease's retained broker state, as the backend stores it and a restarted backend rebuilds
 * the lease from, with agentctl's account of the stream (docs/restarts.md). One shape for all three
 * hops: the broker's journal writes it, the store keeps it (one column per member), the
 * re-adoption reads it back and hands it to the broker with agentctl's account added. Document
 * versions are not here: they change on every keystroke, and agentctl, which sees every message,
 * reports them.
 */
export const persistedLeaseSchema = z.object({
  id: nonEmptyString('must be a non-empty string'),
  sessionId: nonEmptyString('must be a non-empty string'),
  language: z.custom<LanguageId>(isLanguageId, { error: 'must be a language id' }),
  userId: nonEmptyString('must be a non-empty string'),
  trustWorkspaceTools: z.boolean({ error: 'must be true or false' }),
  /** agentctl's stream id: what the next backend resumes. */
  stream: z.number({ error: 'must be a stream id' }).check(z.int({ error: 'must be a stream id' }), z.nonnegative({ error: 'must be a stream id' })),
  workspace: workspaceIdentitySchema,
  /** The browser's `initialize` params, when it sent them (replayed to a restarted server). */
  initializeParams: z.optional(z.unknown()),
  initializeResult: z.unknown(),
  registrations: z.array(z.unknown(), { error: 'must be a list' }),
  /** What agentctl found outside the workspace for an untrusted lease (its ready frame's pins). */
  trustedTools: z.optional(trustedToolPinsSchema),
  /** Which settings the server was last told, so a change made meanwhile is told again. */
  configFingerprint: z.optional(z.string({ error: 'must be a string' })),
  createdAt: z.number({ error: 'must be a time in epoch ms' }),
});
export type PersistedLease = z.infer<typeof persistedLeaseSchema>;

/** A stored lease read back: refused whole (named in the error) when any member is wrong. */
export function parsePersistedLease(value: unknown): WireShapeResult<PersistedLease> {
  return parseWireShape(persistedLeaseSchema, value, 'persisted lease');
}
