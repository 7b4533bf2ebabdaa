import type { AgentLeasesResponse, McpClientConfig } from '@kandev/protocol';
import type { Logger } from '../../base/log.js';
import type { BackendMetrics } from '../../metrics/backendMetrics.js';
import type { SessionService } from '../../sessions/sessionService.js';
import type { SettingsService } from '../../settings/settingsService.js';
import type { TaskRepository } from '../../store/taskRepository.js';

/** What the HTTP routes need; built once by server.ts. */
export interface ApiDeps {
  tasks: TaskRepository;
  sessions: SessionService;
  settings: SettingsService;
  metrics: BackendMetrics;
  log: Logger;
  /** Told of each files request a task host serves: use that keeps it from idle reclaim. */
  taskHostUsed?: (sessionId: string) => void;
  /** A new agent token for a running session, as MCP client JSON (absent: no MCP endpoint). */
  mcpConfig?: (sessionId: string) => McpClientConfig;
  /** The leases the session's agents hold now (absent: no MCP endpoint, so none). */
  agentLeases?: (sessionId: string) => AgentLeasesResponse;
}
