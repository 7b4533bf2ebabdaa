import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '@kandev/kit';
import { mcpClientConfig, MCP_SERVER_NAME, MCP_TOKEN_ENV, MCP_URL_ENV, MCP_PATH, type McpClientConfig } from '@kandev/protocol';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Logger } from '../base/log.js';
import type { SessionEventsHub } from '../events/sessionEvents.js';
import type { LspRelay } from '../lsp/relay.js';
import type { SessionService } from '../sessions/sessionService.js';
import type { AgentTokenRepository } from '../store/agentTokenRepository.js';
import type { UserSettings } from '@kandev/protocol';
import { AgentWorkspace } from './agentWorkspace.js';
import { DiskFollower } from './diskFollower.js';
import { MCP_INSTRUCTIONS, registerTools } from './mcpTools.js';

export interface McpServiceDeps {
  relay: LspRelay;
  sessions: SessionService;
  tokens: AgentTokenRepository;
  hub: SessionEventsHub;
  settings: () => UserSettings;
  clock: Clock;
  idleMs: number;
  log: Logger;
  used: (sessionId: string) => void;
  /** The backend's own URL, known once it listens. */
  baseUrl: () => string;
  version: string;
}

/** One MCP client (an MCP session of the transport) in one Kandev session. */
interface McpClient {
  sessionId: string;
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  workspace: AgentWorkspace;
}

/**
 * The agents' MCP endpoint (docs/agents.md): Streamable HTTP at MCP_PATH, one agent token per
 * Kandev session. Each MCP client gets a workspace of its own (its own leases); the session's
 * live-workspace feed is followed once and shared.
 */
export class McpService {
  private readonly clients = new Map<string, McpClient>();
  private readonly followers = new Map<string, DiskFollower>();

  constructor(private readonly deps: McpServiceDeps) {}

  get url(): string {
    return `${this.deps.baseUrl()}${MCP_PATH}`;
  }

  /** The variables a starting session's task environment gets (a fresh token for it). */
  sessionEnv(sessionId: string): Record<string, string> {
    return { [MCP_URL_ENV]: this.url, [MCP_TOKEN_ENV]: this.deps.tokens.mint(sessionId) };
  }

  /** A further token for the session, as the JSON an MCP client takes. */
  clientConfig(sessionId: string): McpClientConfig {
    return mcpClientConfig(this.url, this.deps.tokens.mint(sessionId));
  }

  /** Agent leases of this session (for the status details). */
  agentClients(sessionId: string): number {
    return [...this.clients.values()].filter((c) => c.sessionId === sessionId).length;
  }

  sessionEnded(sessionId: string): void {
    this.deps.tokens.revoke(sessionId);
    for (const [id, client] of [...this.clients]) {
      if (client.sessionId !== sessionId) continue;
      this.clients.delete(id);
      client.workspace.dispose();
      void client.transport.close();
    }
    this.followers.get(sessionId)?.dispose();
    this.followers.delete(sessionId);
  }

  async close(): Promise<void> {
    for (const client of this.clients.values()) {
      client.workspace.dispose();
      await client.transport.close();
    }
    this.clients.clear();
    for (const follower of this.followers.values()) follower.dispose();
    this.followers.clear();
  }

  private follower(sessionId: string): DiskFollower {
    let follower = this.followers.get(sessionId);
    if (!follower || follower.isClosed) {
      follower = new DiskFollower(this.deps.hub, sessionId, this.deps.clock);
      this.followers.set(sessionId, follower);
    }
    return follower;
  }

  /** The session an agent token opens, if it is live and its session still running. */
  private authenticate(req: IncomingMessage): string | undefined {
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match) return undefined;
    const sessionId = this.deps.tokens.sessionOf(match[1] as string);
    if (!sessionId) return undefined;
    const session = this.deps.sessions.get(sessionId);
    return session && session.status !== 'stopped' && session.status !== 'failed' ? sessionId : undefined;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const sessionId = this.authenticate(req);
    if (!sessionId) {
      this.deps.log.warn('request_refused', { reason: 'unauthenticated', api: 'mcp' });
      return reply(res, 401, 'an agent token of a running session is required (Authorization: Bearer $KANDEV_MCP_TOKEN)', { 'www-authenticate': 'Bearer' });
    }
    const mcpSession = req.headers['mcp-session-id'];
    if (typeof mcpSession === 'string') {
      const client = this.clients.get(mcpSession);
      // Another session's MCP client is as unknown to this token as a made-up id.
      if (!client || client.sessionId !== sessionId) return reply(res, 404, 'no such MCP session');
      return client.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return reply(res, 400, 'start with an initialize request (POST)');
    const client = this.newClient(sessionId);
    await client.transport.handleRequest(req, res);
    // Not an initialize request after all: the transport refused it and no client was made.
    if (client.transport.sessionId === undefined) {
      client.workspace.dispose();
      await client.server.close();
    }
  }

  private newClient(sessionId: string): McpClient {
    const workspace = new AgentWorkspace(
      {
        relay: this.deps.relay,
        sessions: this.deps.sessions,
        settings: this.deps.settings,
        clock: this.deps.clock,
        idleMs: this.deps.idleMs,
        used: this.deps.used,
      },
      sessionId,
    );
    const follower = this.follower(sessionId);
    follower.onChange(() => workspace.markDiskChange());
    const server = new McpServer({ name: MCP_SERVER_NAME, version: this.deps.version }, { instructions: MCP_INSTRUCTIONS, capabilities: { tools: {} } });
    registerTools(
      server,
      () => workspace,
      () => this.follower(sessionId),
    );
    const holder: { client?: McpClient } = {};
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        if (holder.client) this.clients.set(id, holder.client);
        this.deps.log.info('mcp_client_opened', { sessionId });
      },
      onsessionclosed: (id) => {
        const closing = this.clients.get(id);
        this.clients.delete(id);
        closing?.workspace.dispose();
        this.deps.log.info('mcp_client_closed', { sessionId });
      },
    });
    const client: McpClient = { sessionId, transport, server, workspace };
    holder.client = client;
    void server.connect(transport);
    return client;
  }
}

function reply(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}
