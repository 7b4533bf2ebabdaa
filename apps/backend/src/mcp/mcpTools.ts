import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { AgentWorkspace } from './agentWorkspace.js';
import type { DiskFollower } from './diskFollower.js';
import { toolCall, type ToolCallNotes } from './toolCall.js';
import { ToolError } from './toolError.js';
import { clampMaxResults, MAX_RESULTS_CAP } from './budget.js';
import { diagnostics } from './diagnostics.js';
import { codeActions, rename } from './editing.js';
import { callHierarchy, hover, locations, symbolsOfDocument, symbolsOfWorkspace, type ToolAnswer } from './navigation.js';
import { SYMBOL_KINDS } from './symbols.js';

export const MCP_INSTRUCTIONS = `Kandev language intelligence for this task's workspace: the same language servers the person watching the task uses, reading the files on disk.
Prefer these tools over grep when meaning matters: diagnostics after every edit (which files are broken now), definition/references/implementation/call_hierarchy to follow code, rename instead of search-and-replace.
Paths are relative to the workspace root; line and column are 1-based. Instead of line/column you may pass symbol (exact name, optionally kind and container).
An "indexing" error means the server is still loading: call again shortly. Results are compact; raise max_results when told more exist.`;

const path = z.string().max(1024).describe('workspace-relative file path');
const line = z.number().int().min(1).max(10_000_000).optional().describe('1-based line');
const column = z.number().int().min(1).max(1_000_000).optional().describe('1-based column');
const symbol = z.string().min(1).max(256).optional().describe('symbol name instead of line/column');
const kind = z.enum(SYMBOL_KINDS).optional().describe('symbol kind, to disambiguate');
const container = z.string().max(256).optional().describe('enclosing symbol, to disambiguate');
const maxResults = z.number().int().min(1).max(MAX_RESULTS_CAP).optional().describe('most results to list (default 100)');
const place = { path, line, column, symbol, kind, container };

function result(answer: ToolAnswer & { failed?: boolean }): CallToolResult {
  return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.structured, ...(answer.failed ? { isError: true } : {}) };
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * What a tool says while it works (the indexing wait): a progress notification, when the client
 * asked for progress with a token.
 */
function notesOf(extra: Extra): ToolCallNotes {
  const token = extra._meta?.progressToken;
  let progress = 0;
  return {
    note(message) {
      if (token === undefined) return;
      progress += 1;
      extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, message } }).catch(() => undefined);
    },
  };
}

/** A tool's failure as the agent reads it; anything unexpected is still an error answer, never a crash. */
async function run(extra: Extra, work: () => Promise<ToolAnswer & { failed?: boolean }>): Promise<CallToolResult> {
  try {
    return result(await toolCall.run(notesOf(extra), work));
  } catch (err) {
    const kind = err instanceof ToolError ? err.kind : 'error';
    const message = err instanceof Error ? err.message : String(err);
    return { content: [{ type: 'text', text: message }], structuredContent: { error: kind, message }, isError: true };
  }
}

export function registerTools(server: McpServer, workspace: () => AgentWorkspace, follower: () => DiskFollower): void {
  const readOnly = { readOnlyHint: true, openWorldHint: false };
  server.registerTool(
    'diagnostics',
    {
      description: "Errors and warnings in files, after the servers settle on the disk's content. No paths: the files git reports changed.",
      inputSchema: {
        paths: z.array(path).max(200).optional().describe('files to check (default: git changed files)'),
        severity: z.enum(['error', 'warning', 'info', 'hint']).optional().describe('lowest severity listed (default warning)'),
        max_results: maxResults,
      },
      annotations: readOnly,
    },
    (args, extra) =>
      run(extra, () =>
        diagnostics(workspace(), follower(), { paths: args.paths, severity: args.severity ?? 'warning', max_results: clampMaxResults(args.max_results) }),
      ),
  );
  server.registerTool('hover', { description: 'Type and documentation of the symbol at a place.', inputSchema: place, annotations: readOnly }, (args, extra) =>
    run(extra, () => hover(workspace(), args)),
  );
  for (const [name, method, description] of [
    ['definition', 'textDocument/definition', 'Where the symbol at a place is defined.'],
    ['references', 'textDocument/references', 'Every reference to the symbol at a place, across the workspace.'],
    ['implementation', 'textDocument/implementation', 'Implementations of the interface or method at a place.'],
  ] as const) {
    server.registerTool(name, { description, inputSchema: { ...place, max_results: maxResults }, annotations: readOnly }, (args, extra) =>
      run(extra, () => locations(workspace(), method, { ...args, max_results: clampMaxResults(args.max_results) })),
    );
  }
  server.registerTool(
    'document_symbols',
    { description: 'The outline of a file: its symbols with kinds and positions.', inputSchema: { path, max_results: maxResults }, annotations: readOnly },
    (args, extra) => run(extra, () => symbolsOfDocument(workspace(), { path: args.path, max_results: clampMaxResults(args.max_results) })),
  );
  server.registerTool(
    'workspace_symbols',
    {
      description: "Symbols matching a name anywhere in the workspace, from one language's server.",
      inputSchema: {
        query: z.string().min(1).max(256),
        language: z.string().max(32).describe('language id, e.g. typescript, python, go'),
        max_results: maxResults,
      },
      annotations: readOnly,
    },
    (args, extra) =>
      run(extra, () => symbolsOfWorkspace(workspace(), { query: args.query, language: args.language, max_results: clampMaxResults(args.max_results) })),
  );
  server.registerTool(
    'call_hierarchy',
    {
      description: 'Who calls the function at a place (incoming), or what it calls (outgoing).',
      inputSchema: { ...place, direction: z.enum(['incoming', 'outgoing']).optional().describe('default incoming'), max_results: maxResults },
      annotations: readOnly,
    },
    (args, extra) =>
      run(extra, () => callHierarchy(workspace(), { ...args, direction: args.direction ?? 'incoming', max_results: clampMaxResults(args.max_results) })),
  );
  server.registerTool(
    'code_actions',
    {
      description: 'Quick fixes the server offers for a range, as diffs (not applied).',
      inputSchema: {
        path,
        line: z.number().int().min(1).max(10_000_000),
        column: z.number().int().min(1).max(1_000_000),
        end_line: line,
        end_column: column,
        max_results: maxResults,
      },
      annotations: readOnly,
    },
    (args, extra) => run(extra, () => codeActions(workspace(), { ...args, max_results: clampMaxResults(args.max_results) })),
  );
  server.registerTool(
    'rename',
    {
      description: 'Renames the symbol at a place everywhere, as a unified diff; writes it only with apply: true.',
      inputSchema: { ...place, new_name: z.string().min(1).max(256), apply: z.boolean().optional().describe('write the edit (default false: preview)') },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    (args, extra) => run(extra, () => rename(workspace(), { ...args, apply: args.apply === true })),
  );
}
