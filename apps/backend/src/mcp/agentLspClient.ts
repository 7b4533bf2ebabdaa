import { after, type Clock } from '@kandev/kit';
import type { LanguageId, ReadyFrame, StatusFrame } from '@kandev/protocol';
import { CloseCode, isRecord, RpcErrorCode } from '@kandev/protocol';
import type { LspRelay } from '../lsp/relay.js';
import { AGENT_CLIENT_CAPABILITIES } from './agentCapabilities.js';
import { AgentEndpoint } from './agentEndpoint.js';
import { ToolError } from './toolError.js';

export interface PublishedDiagnostics {
  version: number | undefined;
  diagnostics: unknown[];
  /** Order of arrival over the whole client (compared with `changeSeq`). */
  seq: number;
}

/** How long a warm server may take to answer one request. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** Counted from the lease's start: the bound of a cold server's first requests (project loading). */
export const COLD_START_MS = 90_000;

/** The broker's answer while the lease's server is not running (being restarted). */
class NotInitialized extends ToolError {}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

/** Why a lease could not be had or was lost, as an agent reads it. */
function closeMessage(language: LanguageId, code: number): string {
  switch (code) {
    case CloseCode.CapacityReached:
      return `capacity full: every language-server slot is held by an attached lease (a person's tab or an agent's), so no ${language} server can start now; try again later or ask the person to close a tab`;
    case CloseCode.Unavailable:
      return 'the session is not running (or its task host cannot be reached)';
    case CloseCode.ServerExited:
      return `the ${language} server exited`;
    case CloseCode.BinaryMissingInstallable:
    case CloseCode.NoInstaller:
      return `the ${language} server is not installed on the task host; install it from the Editors settings`;
    case CloseCode.InstallFailed:
      return `installing the ${language} server failed`;
    case CloseCode.StartFailed:
      return `the ${language} server failed to start`;
    default:
      return `the ${language} lease ended (code ${code})`;
  }
}

/**
 * An agent's LSP client over one lease: the backend speaks LSP to the server as the web client
 * would (initialize, documents from disk, requests), through the broker like a tab.
 */
export class AgentLspClient {
  private readonly endpoint: AgentEndpoint;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readyFrame: ReadyFrame | undefined;
  private initResult: Record<string, unknown> = {};
  private endedWith: string | undefined;
  private readonly started: Promise<void>;
  private startedResolve!: () => void;
  private startedReject!: (err: Error) => void;
  readonly diagnostics = new Map<string, PublishedDiagnostics>();
  /** Active work-done progress by token: title (indexing while any is active). */
  readonly progress = new Map<string, string>();
  private seq = 0;
  /** When (on the backend's clock) the last publication or progress change came: the settle rule's quiet window. */
  lastActivityAt: number;
  /** `now` when the live workspace last reported a disk change: publications after it reflect it. */
  diskMark = 0;
  private readonly listeners = new Set<() => void>();
  /** When (on the backend's clock) the lease was asked for: a cold server's first requests are bounded from here. */
  private readonly createdAt: number;

  constructor(
    relay: LspRelay,
    readonly sessionId: string,
    readonly language: LanguageId,
    private readonly clock: Clock,
  ) {
    this.lastActivityAt = clock.now();
    this.createdAt = clock.now();
    this.started = new Promise((resolve, reject) => {
      this.startedResolve = resolve;
      this.startedReject = reject;
    });
    this.started.catch(() => undefined);
    this.endpoint = new AgentEndpoint({
      status: (frame) => this.onStatus(frame),
      message: (message) => this.onMessage(message),
      closed: (code) => this.onClosed(code),
    });
    relay.attach(this.endpoint, { sessionId, language, leaseHint: undefined, ownerKind: 'agent' });
  }

  get ended(): boolean {
    return this.endedWith !== undefined;
  }

  /** Current arrival counter: a publication with a higher `seq` arrived after this moment. */
  get now(): number {
    return this.seq;
  }

  get capabilities(): Record<string, unknown> {
    return this.initResult;
  }

  get workspaceUri(): string {
    return this.readyFrame?.workspaceUri ?? '';
  }

  /** Resolves once initialized; rejects with the reason the lease could not be had. */
  ready(): Promise<void> {
    return this.started;
  }

  /** Called on every publication or progress change (waiters re-check their condition). */
  onActivity(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private poke(): void {
    this.lastActivityAt = this.clock.now();
    for (const listener of [...this.listeners]) listener();
  }

  private onStatus(frame: StatusFrame): void {
    if (frame.status === 'ready' && !this.readyFrame) {
      this.readyFrame = frame;
      void this.initialize(frame);
    } else if (frame.status === 'install_failed') {
      this.fail(`installing the ${this.language} server failed: ${frame.error}`);
    } else if (frame.status === 'restarting') {
      // The server crashed and the lease restarts it: requests wait for it instead of failing.
      this.restarting ??= new Promise((resolve) => (this.restartDone = resolve));
    } else if (frame.status === 'ready' && frame.resumed) {
      // A restarted server: the broker initialized it; documents must be opened again.
      this.endpoint.send(JSON.stringify({ control: 'attachment-ready' }));
      this.restarted?.();
      // The old process's work-done progress ends with it: no `end` will ever come for it.
      this.progress.clear();
      this.restartDone?.();
      this.restarting = undefined;
      this.resumedSince += 1;
      this.poke();
    }
  }

  private restarting: Promise<void> | undefined;
  /** Counts resumed `ready` frames since a request was last refused for a restart. */
  private resumedSince = 0;
  private restartDone: (() => void) | undefined;

  /** Resolves at once, or once a restarting server is back (its documents must then be reopened). */
  async settled(): Promise<void> {
    if (this.restarting) await this.restarting;
  }

  /** Set by the documents: a restarted server has none open. */
  restarted: (() => void) | undefined;

  private async initialize(frame: ReadyFrame): Promise<void> {
    try {
      const result = await this.request('initialize', {
        // Not ours: the server runs on the task host (in a container another PID namespace), and a
        // server that watches its client's pid (pyright does) would exit when it finds none there.
        processId: null,
        clientInfo: { name: 'kandev-mcp' },
        rootUri: frame.workspaceUri,
        workspaceFolders: [{ uri: frame.workspaceUri, name: 'workspace' }],
        capabilities: AGENT_CLIENT_CAPABILITIES,
      });
      this.initResult = isRecord(result) && isRecord(result.capabilities) ? result.capabilities : {};
      this.notify('initialized', {});
      this.startedResolve();
    } catch (err) {
      this.fail(err instanceof Error ? err.message : String(err));
    }
  }

  private onMessage(message: Record<string, unknown>): void {
    const method = typeof message.method === 'string' ? message.method : undefined;
    if (method !== undefined && message.id !== undefined) return this.answerServer(message.id, method);
    if (method === 'textDocument/publishDiagnostics') return this.published(message.params);
    if (method === '$/progress') return this.progressed(message.params);
    if (method !== undefined) return;
    const id = typeof message.id === 'number' ? message.id : undefined;
    const pending = id === undefined ? undefined : this.pending.get(id);
    if (!pending || id === undefined) return;
    this.pending.delete(id);
    if (isRecord(message.error) && message.error.code === RpcErrorCode.ServerNotInitialized) pending.reject(new NotInitialized(String(message.error.message)));
    else if (isRecord(message.error)) pending.reject(new ToolError(`the ${this.language} server answered: ${String(message.error.message)}`));
    else pending.resolve(message.result);
  }

  /** Registrations, refreshes and the like: accepted (the broker already acted on what matters). */
  private answerServer(id: unknown, method: string): void {
    const result = method === 'workspace/applyEdit' ? { applied: false, failureReason: 'the agent client applies edits itself' } : null;
    this.endpoint.send(JSON.stringify({ jsonrpc: '2.0', id, result }));
  }

  private published(params: unknown): void {
    if (!isRecord(params) || typeof params.uri !== 'string' || !Array.isArray(params.diagnostics)) return;
    const version = typeof params.version === 'number' ? params.version : undefined;
    this.diagnostics.set(params.uri, { version, diagnostics: params.diagnostics, seq: ++this.seq });
    this.poke();
  }

  private progressed(params: unknown): void {
    if (!isRecord(params) || !isRecord(params.value)) return;
    const token = String(params.token);
    const value = params.value;
    if (value.kind === 'begin') this.progress.set(token, typeof value.title === 'string' ? value.title : 'working');
    else if (value.kind === 'end') this.progress.delete(token);
    this.seq++;
    this.poke();
  }

  /**
   * A request; one the broker refused because the server is being restarted (ServerNotInitialized)
   * is sent once more when it is back.
   */
  async request(method: string, params: unknown, timeoutMs?: number): Promise<unknown> {
    await this.settled();
    timeoutMs ??= this.requestBound();
    this.resumedSince = 0;
    try {
      return await this.send(method, params, timeoutMs);
    } catch (err) {
      if (!(err instanceof NotInitialized)) throw err;
      // The `restarting` frame may still be on its way: wait for the server to be back, bounded.
      await new Promise<void>((resolve) => {
        const timer = after(this.clock, timeoutMs, done);
        const stop = this.onActivity(() => {
          if (this.restarting === undefined && this.resumedSince > 0) done();
        });
        function done(): void {
          timer.dispose();
          stop();
          resolve();
        }
      });
      return this.send(method, params, timeoutMs);
    }
  }

  /**
   * How long a request may take. A cold server answers its first requests only once it has loaded
   * the project (tsserver on a loaded host took longer than 30 s), so until COLD_START_MS after its
   * start the bound reaches that far; later REQUEST_TIMEOUT_MS.
   */
  private requestBound(): number {
    const sinceStart = this.clock.now() - this.createdAt;
    return Math.max(REQUEST_TIMEOUT_MS, COLD_START_MS - sinceStart);
  }

  private send(method: string, params: unknown, timeoutMs: number): Promise<unknown> {
    if (this.endedWith) return Promise.reject(new ToolError(this.endedWith));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = after(this.clock, timeoutMs, () => {
        if (!this.pending.delete(id)) return;
        this.endpoint.send(JSON.stringify({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } }));
        reject(new ToolError(`the ${this.language} server did not answer ${method} within ${Math.round(timeoutMs / 1000)} s`));
      });
      this.pending.set(id, {
        resolve: (v) => (timer.dispose(), resolve(v)),
        reject: (e) => (timer.dispose(), reject(e)),
      });
      this.endpoint.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  notify(method: string, params: unknown): void {
    this.endpoint.send(JSON.stringify({ jsonrpc: '2.0', method, params }));
  }

  /** Ends the lease politely: the broker shuts the server down and reaps it. */
  release(): void {
    if (this.endedWith) return;
    this.endpoint.send(JSON.stringify({ control: 'release', reason: 'editor_idle' }));
  }

  private onClosed(code: number): void {
    this.fail(closeMessage(this.language, code));
  }

  private fail(reason: string): void {
    if (this.endedWith) return;
    this.endedWith = reason;
    this.restartDone?.();
    this.startedReject(new ToolError(reason));
    for (const [, pending] of this.pending) pending.reject(new ToolError(reason));
    this.pending.clear();
    this.poke();
    if (!this.endpoint.isClosed) this.endpoint.close(CloseCode.Normal);
  }
}
