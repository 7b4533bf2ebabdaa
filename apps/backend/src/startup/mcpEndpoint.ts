/** Startup step: the MCP endpoint agents use for language intelligence (docs/agents.md). */
import { systemClock, type Clock } from '@kandev/kit';
import type { Logger } from '../base/log.js';
import type { SessionEventsHub } from '../events/sessionEvents.js';
import type { LspRelay } from '../lsp/relay.js';
import { AGENT_LEASE_IDLE_MS } from '../mcp/agentWorkspace.js';
import { McpService } from '../mcp/mcpService.js';
import type { IdleReclaimer } from '../sessions/idleReclaimer.js';
import type { SessionService } from '../sessions/sessionService.js';
import type { SettingsService } from '../settings/settingsService.js';
import type { AgentTokenRepository } from '../store/agentTokenRepository.js';

/** What the agents' endpoint reads: a structural part of BackendConfig (config.ts), so startup/ never imports the composition root. */
export interface McpEndpointSettings {
  mcpLeaseIdleMs?: number;
}

export interface McpEndpointDeps {
  config: McpEndpointSettings;
  relay: LspRelay;
  sessions: SessionService;
  agentTokens: AgentTokenRepository;
  hub: SessionEventsHub;
  settings: SettingsService;
  reclaimer: IdleReclaimer;
  /** The backend's URL, known only once it listens (agents are given it in their config). */
  baseUrl: () => string;
  log: Logger;
  clock?: Clock;
}

/** How long an agent's idle lease lives (KANDEV_MCP_LEASE_IDLE_MS or the default). */
export function agentLeaseIdleMs(config: McpEndpointSettings): number {
  return config.mcpLeaseIdleMs ?? AGENT_LEASE_IDLE_MS;
}

export function startMcpEndpoint(deps: McpEndpointDeps): McpService {
  const mcp = new McpService({
    relay: deps.relay,
    sessions: deps.sessions,
    tokens: deps.agentTokens,
    hub: deps.hub,
    settings: () => deps.settings.get(),
    clock: deps.clock ?? systemClock,
    idleMs: agentLeaseIdleMs(deps.config),
    log: deps.log,
    used: (id) => deps.reclaimer.touch(id),
    baseUrl: deps.baseUrl,
    version: '0.1.0',
  });
  deps.sessions.onEnded((id) => mcp.sessionEnded(id));
  return mcp;
}
