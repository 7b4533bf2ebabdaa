/**
 * The agents' MCP endpoint (docs/agents.md): what a task environment is given to find it, and the
 * tools it lists. The route itself is MCP_PATH in routes.ts.
 */

/** Set in the environment of Local PC and Local Docker task hosts: the MCP endpoint's URL. */
export const MCP_URL_ENV = 'KANDEV_MCP_URL';
/** Set beside MCP_URL_ENV: the session's agent token, sent as `Authorization: Bearer`. */
export const MCP_TOKEN_ENV = 'KANDEV_MCP_TOKEN';

/** The name the endpoint goes by in an MCP client's configuration. */
export const MCP_SERVER_NAME = 'kandev';

export const MCP_TOOL_NAMES = [
  'diagnostics',
  'hover',
  'definition',
  'references',
  'implementation',
  'document_symbols',
  'workspace_symbols',
  'call_hierarchy',
  'code_actions',
  'rename',
] as const;
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];

/** The JSON an MCP client takes to reach one session's endpoint (`npm run mcp -- config`). */
export interface McpClientConfig {
  mcpServers: Record<string, { type: 'http'; url: string; headers: { Authorization: string } }>;
}

export function mcpClientConfig(url: string, token: string): McpClientConfig {
  return { mcpServers: { [MCP_SERVER_NAME]: { type: 'http', url, headers: { Authorization: `Bearer ${token}` } } } };
}

/**
 * The language servers the session's agents hold (GET `sessionAgentLeases`), for the person's
 * status details: agent leases count against capacity apart from the person's.
 */
export interface AgentLeasesResponse {
  leases: AgentLeaseSummary[];
  /** An agent lease without a tool call this long is released. */
  idleReleaseMs: number;
}

export interface AgentLeaseSummary {
  /** A catalog language id. */
  language: string;
  state: 'starting' | 'running' | 'releasing';
}
