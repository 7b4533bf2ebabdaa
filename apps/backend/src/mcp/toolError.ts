/** A failure an agent reads as a tool error (isError), never a crash of the endpoint. */
export class ToolError extends Error {
  constructor(
    message: string,
    /** A distinct kind an agent can act on (`indexing`: wait and call again). */
    readonly kind: 'error' | 'indexing' = 'error',
  ) {
    super(message);
  }
}
