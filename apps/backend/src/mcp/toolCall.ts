import { AsyncLocalStorage } from 'node:async_hooks';

/** What a tool can tell its caller while it works (an MCP progress notification, when asked for one). */
export interface ToolCallNotes {
  note(message: string): void;
}

/**
 * The tool call in progress, for code deep in a tool (the indexing wait) that has something to say
 * before the answer: carried by the call's async context rather than threaded through every tool.
 */
export const toolCall = new AsyncLocalStorage<ToolCallNotes>();
