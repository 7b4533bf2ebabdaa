import * as z from 'zod/mini';
import { nonEmptyString, parseWireShape, type WireShapeResult } from './wireShape.js';

/**
 * `POST .../files/apply`: an atomic multi-file change (a language server's WorkspaceEdit, applied
 * to files that are not open). The backend checks the body before forwarding it, agentctl before
 * applying it, with this one schema; paths are confined to the workspace by agentctl afterwards.
 */
export const MAX_FILE_OPERATIONS = 1_000;

const PATH = 'must be a non-empty workspace-relative path';
const FLAG = 'must be true or false';
const path = () => nonEmptyString(PATH);
const flag = () => z.optional(z.boolean({ error: FLAG }));

/** One step of the batch. `baseVersion` is the version the client read; a mismatch aborts the whole batch. */
export const fileOperationSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('write'),
      path: path(),
      content: z.string({ error: 'must be a string' }),
      baseVersion: z.optional(z.string({ error: 'must be a string' })),
    }),
    z.object({ kind: z.literal('create'), path: path(), overwrite: flag(), ignoreIfExists: flag() }),
    z.object({ kind: z.literal('rename'), from: path(), to: path(), overwrite: flag(), ignoreIfExists: flag() }),
    z.object({ kind: z.literal('delete'), path: path(), recursive: flag(), ignoreIfNotExists: flag() }),
  ],
  { error: 'must be write, create, rename or delete' },
);
export type FileOperation = z.infer<typeof fileOperationSchema>;

const OPERATIONS = `must be a list of 1 to ${MAX_FILE_OPERATIONS} operations`;
export const applyFilesRequestSchema = z.object(
  {
    operations: z
      .array(fileOperationSchema, { error: OPERATIONS })
      .check(z.minLength(1, { error: OPERATIONS }), z.maxLength(MAX_FILE_OPERATIONS, { error: OPERATIONS })),
  },
  { error: 'the body must be {"operations": [write|create|rename|delete, ...]}' },
);
export type ApplyFilesRequest = z.infer<typeof applyFilesRequestSchema>;

/** The body of a files/apply request; the first wrong member refuses it whole, named in the error. */
export function parseApplyFilesRequest(value: unknown): WireShapeResult<ApplyFilesRequest> {
  return parseWireShape(applyFilesRequestSchema, value, 'files/apply body');
}
