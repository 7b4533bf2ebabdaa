import { CloseCode, type HostReadyFrame, type WorkspaceIdentity } from '@kandev/protocol';
import WebSocket from 'ws';
import { startBridge, type Bridge, type BridgeEnd } from '../bridge/bridge.js';
import { DeadlineSender } from '../bridge/deadlineSender.js';
import { catalogLanguage, type CatalogLanguage } from '../catalog/catalog.js';
import { errorFields, type LogEvent, type LogFields, type Logger, type LogLevel } from '../log.js';
import type { LaunchedServer } from '../process/launch.js';
import type { ResolveFs } from '../resolve/resolveServer.js';
import { childEnv, type TaskEnv } from '../taskEnv.js';
import { bridgeEndOutcome } from './decisions.js';
import type { InstallLanguageServer } from './installer.js';
import { runLauncherPhase } from './launcherPhase.js';
import type { StreamParamsResult } from './params.js';
import { reapServerTree, startServer, type ServerProcessContext } from './serverProcess.js';
import { findTrustedTools } from '../trust/trustedTools.js';
import { untrustedEnvOverrides } from '../trust/untrustedEnv.js';

export interface StreamTimings {
  wsWriteDeadlineMs: number;
  stdinCutoffMs: number;
  reapGraceMs: number;
  exitFlushMs: number;
}

/** What every stream of this agentctl shares: the workspace, the task env and the host's rules. */
export interface StreamHost {
  workspace: WorkspaceIdentity;
  workspaceReal: string;
  env: TaskEnv;
  /** The task host's platform (injectable, like everything resolution depends on). */
  platform: NodeJS.Platform;
  /** Absent: this agentctl has no installer at all, so a missing server is 4007. */
  installer: InstallLanguageServer | undefined;
  logger: Logger;
  timings: StreamTimings;
  resolveFs?: ResolveFs;
}

const HIGH_WATERMARK_BYTES = 8 * 1024 * 1024;
const LOW_WATERMARK_BYTES = 1024 * 1024;

/**
 * One task-host LSP stream (DESIGN section 3): catalog -> resolve -> install (launcherPhase.ts,
 * installPhase.ts) -> launch -> bridge. Everything it acquires (install, process tree, bridge) it
 * disposes itself; closes never carry a reason text, the detail goes to the log.
 */
export class LspStream {
  private readonly abort = new AbortController();
  private readonly sender: DeadlineSender;
  private readonly env: Record<string, string>;
  private server: LaunchedServer | undefined;
  private bridge: Bridge | undefined;
  private closed = false;
  private readonly closedSignal: Promise<void>;
  private signalClosed: () => void = () => {};
  private reaping: Promise<void> | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly params: StreamParamsResult,
    private readonly host: StreamHost,
    private readonly id: number,
  ) {
    // Untrusted (the default): resolve, install and launch with the guarded env (docs/workspace-trust.md).
    const guards = params.ok && !params.params.trustWorkspaceTools
      ? untrustedEnvOverrides(params.params.language, host.env, host.workspaceReal, host.platform)
      : {};
    this.env = childEnv(host.env, guards, host.platform);
    this.closedSignal = new Promise((resolve) => (this.signalClosed = resolve));
    this.sender = new DeadlineSender(ws, host.timings.wsWriteDeadlineMs, () => this.onWriteStuck(), LOW_WATERMARK_BYTES);
    ws.on('error', () => {});
    ws.on('close', () => this.onClientGone());
  }

  /** Runs the stream to its bridged state (or its refusal). Resolves when that phase is over. */
  start(): Promise<void> {
    this.running ??= this.run().catch((err) => {
      this.log('error', 'internal_error', errorFields(err));
      this.close(CloseCode.StartFailed);
    });
    return this.running;
  }

  /** Resolves once the stream is over and its process tree reaped. */
  async finished(): Promise<void> {
    await this.start();
    await this.closedSignal;
    await this.reapServer();
  }

  /** agentctl teardown: 1001 without reason, cancel any install and wait for it, reap the tree. */
  async shutdown(): Promise<void> {
    this.close(CloseCode.GoingAway);
    await this.start();
    await this.reapServer();
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    this.signalClosed();
  }

  private log(level: LogLevel, event: LogEvent, fields: LogFields = {}): void {
    this.host.logger.log(level, event, { stream: this.id, language: this.params.ok ? this.params.params.language : undefined, ...fields });
  }

  private async run(): Promise<void> {
    if (!this.params.ok) {
      this.log('warn', 'stream_refused', { reason: 'bad_params', detail: this.params.detail });
      this.close(CloseCode.Unavailable);
      return;
    }
    const { language: id, autoInstall } = this.params.params;
    const language = catalogLanguage(id);
    this.log('info', 'stream_open', { autoInstall, trustWorkspaceTools: this.params.params.trustWorkspaceTools });
    const result = await runLauncherPhase({
      language,
      env: this.env,
      platform: this.host.platform,
      workspaceReal: this.host.workspaceReal,
      signal: this.abort.signal,
      send: (frame) => this.sender.send(JSON.stringify(frame)),
      isClosed: () => this.closed,
      log: (level, event, fields) => this.log(level, event, fields),
      autoInstall,
      installer: this.host.installer,
      resolveFs: this.host.resolveFs,
    });
    switch (result.kind) {
      case 'launch':
        if (!this.closed) await this.launch(language, result.binaryPath);
        return;
      case 'close':
        this.close(result.code);
        return;
      case 'drop':
        this.drop(result.frame);
        return;
      case 'ended':
        return;
    }
  }

  private get processContext(): ServerProcessContext {
    const { env, host, id } = this;
    return { env, platform: host.platform, cwd: host.workspace.workspacePath, logger: host.logger, streamId: id, log: (level, event, fields) => this.log(level, event, fields) };
  }

  private async launch(language: CatalogLanguage, launcher: string): Promise<void> {
    const server = await startServer(this.processContext, language, launcher);
    if (!server) {
      this.close(CloseCode.StartFailed);
      return;
    }
    this.server = server;
    if (this.closed) {
      void this.reapServer();
      return;
    }
    const ready: HostReadyFrame = { status: 'ready', language: language.id, ...this.host.workspace };
    if (this.params.ok && !this.params.params.trustWorkspaceTools) {
      ready.trustedTools = findTrustedTools(language.id, launcher, this.env, this.host.workspaceReal, this.host.platform);
    }
    if (!(await this.sender.send(JSON.stringify(ready)))) {
      this.drop('ready');
      return;
    }
    if (this.closed) return;
    const timings = this.host.timings;
    this.bridge = startBridge(
      this.ws,
      server,
      this.sender,
      { stdinCutoffMs: timings.stdinCutoffMs, highWatermark: HIGH_WATERMARK_BYTES, exitFlushMs: timings.exitFlushMs },
      (end) => this.onBridgeEnd(end),
    );
  }

  private onBridgeEnd(end: BridgeEnd): void {
    const outcome = bridgeEndOutcome(end);
    this.log(outcome.level, outcome.event, end.kind === 'stdin_stuck' ? { cutoffMs: this.host.timings.stdinCutoffMs } : outcome.fields);
    if (outcome.code === undefined) this.markClosed();
    else this.close(outcome.code);
    void this.reapServer();
  }

  /** Closes the WebSocket once, with a code and never a reason text, and ends the stream. */
  private close(code: number): void {
    if (this.closed) return;
    this.markClosed();
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) {
      try {
        this.ws.close(code);
      } catch {
        this.ws.terminate();
      }
    }
    void this.reapServer();
  }

  /** A status frame could not be delivered: the socket is unusable, so drop it instead of closing. */
  private drop(frame: string): void {
    if (!this.closed) this.log('warn', 'stream_write_failed', { frame });
    this.markClosed();
    this.ws.terminate();
    void this.reapServer();
  }

  private onClientGone(): void {
    if (!this.closed) this.log('info', 'stream_closed', { phase: this.server ? 'launched' : 'before_launch' });
    this.markClosed();
    void this.reapServer();
  }

  private onWriteStuck(): void {
    this.log('warn', 'stream_write_timeout', { deadlineMs: this.host.timings.wsWriteDeadlineMs });
    this.markClosed();
    // A close frame would queue behind the data the peer is not taking: drop the socket.
    this.ws.terminate();
    void this.reapServer();
  }

  private reapServer(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    // Stop bridging first: the exit we are about to cause is not a "server exited" event.
    this.bridge?.dispose();
    this.reaping ??= reapServerTree(this.processContext, server, this.host.timings.reapGraceMs);
    return this.reaping;
  }
}
