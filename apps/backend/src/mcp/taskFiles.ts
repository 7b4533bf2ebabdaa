import { taskHostFilesPath, type FileOperation, type ReadFileResponse } from '@kandev/protocol';
import type { SessionService } from '../sessions/sessionService.js';
import { AgentctlClient } from '../taskhost/agentctlClient.js';
import { ToolError } from './toolError.js';

/** The bound on what one tool reads of a file (larger files get a tool error, never a crash). */
export const MAX_AGENT_FILE_BYTES = 4 * 1024 * 1024;

export type ApplyOutcome = { ok: true; versions: Record<string, string> } | { ok: false; status: number; detail: string };

/**
 * The session's files as the agent reaches them: through agentctl's files routes, which confine
 * every path to the workspace and check versions on writes, exactly as for the page.
 */
export class TaskFiles {
  constructor(
    private readonly sessions: SessionService,
    private readonly sessionId: string,
    private readonly used: () => void,
  ) {}

  private client(): AgentctlClient {
    const host = this.sessions.liveHost(this.sessionId);
    if (!host) throw new ToolError('the session is not running');
    this.used();
    return new AgentctlClient(host.endpoint);
  }

  async read(path: string): Promise<ReadFileResponse> {
    const response = await this.client().forward('GET', taskHostFilesPath('file', `?${new URLSearchParams({ path }).toString()}`), undefined);
    if (!response.ok) throw new ToolError('the task host did not answer');
    const { status, body } = response.value;
    if (status === 200) {
      const file = JSON.parse(body.toString('utf8')) as ReadFileResponse;
      if (Buffer.byteLength(file.content) > MAX_AGENT_FILE_BYTES) throw new ToolError(`${path} is larger than ${MAX_AGENT_FILE_BYTES} bytes`);
      return file;
    }
    if (status === 404) throw new ToolError(`no such file in the workspace: ${path}`);
    if (status === 403) throw new ToolError(`${path} is outside the workspace`);
    if (status === 413) throw new ToolError(`${path} is too large to read`);
    throw new ToolError(`reading ${path} failed (HTTP ${status}): ${body.toString('utf8').slice(0, 200)}`);
  }

  /** All or nothing: a version that moved since it was read refuses the whole batch. */
  async apply(operations: FileOperation[]): Promise<ApplyOutcome> {
    const response = await this.client().forward('POST', taskHostFilesPath('filesApply', ''), JSON.stringify({ operations }));
    if (!response.ok) return { ok: false, status: 0, detail: 'the task host did not answer' };
    const text = response.value.body.toString('utf8');
    if (response.value.status === 200) return { ok: true, versions: (JSON.parse(text) as { versions: Record<string, string> }).versions };
    return { ok: false, status: response.value.status, detail: text.slice(0, 2000) };
  }
}
