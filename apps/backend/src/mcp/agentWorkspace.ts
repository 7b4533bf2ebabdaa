import { after, type Clock, type Disposable } from '@kandev/kit';
import { languageForPath, type LanguageId, type UserSettings } from '@kandev/protocol';
import type { LspRelay } from '../lsp/relay.js';
import type { SessionService } from '../sessions/sessionService.js';
import { AgentDocuments } from './agentDocuments.js';
import { AgentLspClient } from './agentLspClient.js';
import { TaskFiles } from './taskFiles.js';
import { ToolError } from './toolError.js';

/**
 * How long an agent's lease stays warm after its last tool call before it is released (its
 * server shut down and reaped, its slot given back). KANDEV_MCP_LEASE_IDLE_MS overrides it.
 */
export const AGENT_LEASE_IDLE_MS = 10 * 60_000;
/** The longest workspace-relative path a tool takes. */
export const MAX_TOOL_PATH_CHARS = 1024;

export interface AgentWorkspaceDeps {
  relay: LspRelay;
  sessions: SessionService;
  settings: () => UserSettings;
  clock: Clock;
  idleMs: number;
  /** Told of each use, so idle reclaim leaves the task host running. */
  used: (sessionId: string) => void;
}

export interface AgentLease {
  client: AgentLspClient;
  documents: AgentDocuments;
}

interface Held extends AgentLease {
  idle: Disposable | undefined;
}

/**
 * What one MCP client holds in one session: a lease per language it used (marked as an agent's
 * in the broker), kept warm between calls and released after `idleMs` without one.
 */
export class AgentWorkspace {
  readonly files: TaskFiles;
  private readonly held = new Map<LanguageId, Held>();

  constructor(
    private readonly deps: AgentWorkspaceDeps,
    readonly sessionId: string,
  ) {
    this.files = new TaskFiles(deps.sessions, sessionId, () => deps.used(sessionId));
  }

  /** The backend's clock (the indexing and diagnostics waits are measured on it). */
  get clock(): Clock {
    return this.deps.clock;
  }

  /** The language serving a workspace path, after the path itself is checked. */
  languageOf(path: string): LanguageId {
    checkPath(path);
    const language = languageForPath(path);
    if (!language) throw new ToolError(`no language server covers ${path} (unknown language)`);
    return language;
  }

  /** The lease for `language`, started (under the same rules as a tab) when there is none. */
  async lease(language: LanguageId): Promise<AgentLease> {
    const session = this.deps.sessions.get(this.sessionId);
    if (!session || this.deps.sessions.liveHost(this.sessionId) === undefined) throw new ToolError('the session is not running');
    let held = this.held.get(language);
    if (held?.client.ended) {
      held.idle?.dispose();
      this.held.delete(language);
      held = undefined;
    }
    if (!held) {
      if (!this.deps.settings().lsp_auto_start_languages.includes(language)) {
        const name = language;
        throw new ToolError(
          `the ${name} server does not start automatically in this Kandev's settings; turn on auto start for ${name} in Settings > Editors (or start it once from the editor) and call again`,
        );
      }
      const client = new AgentLspClient(this.deps.relay, this.sessionId, language, this.deps.clock);
      held = { client, documents: new AgentDocuments(client, this.files), idle: undefined };
      this.held.set(language, held);
    }
    this.touch(language, held);
    await held.client.ready();
    await held.client.settled();
    return held;
  }

  private touch(language: LanguageId, held: Held): void {
    held.idle?.dispose();
    held.idle = after(this.deps.clock, this.deps.idleMs, () => {
      if (this.held.get(language) !== held) return;
      this.held.delete(language);
      held.client.release();
    });
  }

  /** The live workspace saw the disk change: what servers publish from now on reflects it. */
  markDiskChange(): void {
    for (const held of this.held.values()) held.client.diskMark = held.client.now;
  }

  /** The live leases by language (diagnostics over several languages). */
  languages(): LanguageId[] {
    return [...this.held.keys()];
  }

  /** The MCP client went away or the session ended: every lease is released now. */
  dispose(): void {
    for (const held of this.held.values()) {
      held.idle?.dispose();
      held.client.release();
    }
    this.held.clear();
  }
}

/** Workspace-relative, `/`-separated, inside the workspace; anything else is a tool error. */
export function checkPath(path: string): void {
  if (typeof path !== 'string' || path.length === 0) throw new ToolError('path must be a workspace-relative file path, e.g. src/main.ts');
  if (path.length > MAX_TOOL_PATH_CHARS) throw new ToolError(`path is longer than ${MAX_TOOL_PATH_CHARS} characters`);
  if (path.includes('\0')) throw new ToolError('path contains a NUL character');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.includes('\\')) throw new ToolError(`path must be relative to the workspace root: ${path}`);
  if (path.split('/').some((part) => part === '..')) throw new ToolError(`path is outside the workspace: ${path}`);
}
