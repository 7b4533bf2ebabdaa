import { CloseCode, type HostReadyFrame, type WorkspaceIdentity } from '@kandev/protocol';
import WebSocket from 'ws';
import { startBridge, type Bridge, type BridgeEnd } from '../bridge/bridge.js';
import { DeadlineSender } from '../bridge/deadlineSender.js';
import { logServerStderr } from '../bridge/stderrLog.js';
import { catalogLanguage, type CatalogLanguage } from '../catalog/catalog.js';
import { errorFields, type LogEvent, type LogFields, type Logger, type LogLevel } from '../log.js';
import { launchServer, type LaunchedServer } from '../process/launch.js';
import { launchCommand } from '../process/launchCommand.js';
import { reapTree } from '../process/reapTree.js';
import { newTreeMarker, serverEnv, withoutAgentctlVariables } from '../process/taskEnv.js';
import type { HostFlavour, TaskEnv } from '../resolve/flavour.js';
import { resolveServer, type ResolveFs } from '../resolve/resolveServer.js';
import { bridgeEndOutcome, missingServerDecision } from './decisions.js';
import type { InstallLanguageServer } from './installer.js';
import { runInstallPhase } from './installPhase.js';
import type { StreamParamsResult } from './params.js';

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
  flavour: HostFlavour;
  /** Absent: this agentctl has no installer at all, so a missing server is 4007. */
  installer: InstallLanguageServer | undefined;
  logger: Logger;
  timings: StreamTimings;
  resolveFs?: ResolveFs;
}

const STDERR_BUDGET_BYTES = 256 * 1024;
const HIGH_WATERMARK_BYTES = 8 * 1024 * 1024;
const LOW_WATERMARK_BYTES = 1024 * 1024;

/**
 * One task-host LSP stream (DESIGN section 3): catalog -> resolve -> install -> launch -> bridge.
 * Everything it acquires (install, process tree, bridge) it disposes itself; closes never carry a
 * reason text, the detail goes to the log.
 */
export class LspStream {
  private readonly abort = new AbortController();
  private readonly sender: DeadlineSender;
  private readonly env: Record<string, string>;
  private server: LaunchedServer | undefined;
  private bridge: Bridge | undefined;
  private closed = false;
  private reaping: Promise<void> | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly params: StreamParamsResult,
    private readonly host: StreamHost,
    private readonly id: number,
  ) {
    this.env = withoutAgentctlVariables(host.env);
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
    await this.whenClosed();
    await this.reapServer();
  }

  /** agentctl teardown: 1001 without reason, cancel any install and wait for it, reap the tree. */
  async shutdown(): Promise<void> {
    this.close(CloseCode.GoingAway);
    await this.start();
    await this.reapServer();
  }

  private closeWaiters: Array<() => void> = [];

  private whenClosed(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => this.closeWaiters.push(resolve));
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    const waiters = this.closeWaiters;
    this.closeWaiters = [];
    for (const w of waiters) w();
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
    this.log('info', 'stream_open', { autoInstall });
    const resolved = await resolveServer({ language, env: this.env, flavour: this.host.flavour, workspaceReal: this.host.workspaceReal, fs: this.host.resolveFs });
    if (this.closed) return;
    this.log('info', 'resolve_result', resolved.found ? { found: true, source: resolved.source, path: resolved.path } : { found: false, refused: resolved.refused.length });
    let launcher: string | undefined;
    if (resolved.found) launcher = resolved.path;
    else {
      const decision = missingServerDecision(id, this.host.flavour.platform, autoInstall, this.host.installer !== undefined);
      if (decision.kind === 'close' || !this.host.installer) {
        this.log('info', 'stream_refused', { reason: decision.kind === 'close' ? decision.reason : 'installer_not_built_in' });
        this.close(decision.kind === 'close' ? decision.code : CloseCode.NoInstaller);
        return;
      }
      launcher = await this.install(language, this.host.installer);
    }
    if (launcher === undefined || this.closed) return;
    await this.launch(language, launcher);
  }

  /** Runs the install phase; the stream alone turns its result into a close or a drop. */
  private async install(language: CatalogLanguage, installer: InstallLanguageServer): Promise<string | undefined> {
    const result = await runInstallPhase(
      {
        language,
        env: this.env,
        flavour: this.host.flavour,
        workspaceReal: this.host.workspaceReal,
        signal: this.abort.signal,
        send: (frame) => this.sender.send(JSON.stringify(frame)),
        isClosed: () => this.closed,
        log: (level, event, fields) => this.log(level, event, fields),
      },
      installer,
    );
    switch (result.kind) {
      case 'launch':
        return result.binaryPath;
      case 'close':
        this.close(result.code);
        return undefined;
      case 'drop':
        this.drop(result.frame);
        return undefined;
      case 'ended':
        return undefined;
    }
  }

  private async launch(language: CatalogLanguage, launcher: string): Promise<void> {
    const marker = newTreeMarker();
    const command = launchCommand(launcher, language.args, this.host.flavour, this.env);
    const result = await launchServer({ command, cwd: this.host.workspace.workspacePath, env: serverEnv(this.env, marker), marker });
    if (!result.ok) {
      // S28: the browser gets a bare 4008; why it failed is for the task-host log only.
      this.log('warn', 'launch_failed', { path: launcher, errorCode: result.errorCode, error: result.message });
      this.close(CloseCode.StartFailed);
      return;
    }
    const server = result.server;
    this.server = server;
    this.log('info', 'server_started', { pid: server.pid, path: launcher });
    logServerStderr(server.child.stderr, this.host.logger, { stream: this.id, language: language.id }, STDERR_BUDGET_BYTES);
    if (this.closed) {
      void this.reapServer();
      return;
    }
    const ready: HostReadyFrame = { status: 'ready', language: language.id, ...this.host.workspace };
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
    if (this.server) void this.reapServer();
  }

  /** A status frame could not be delivered: the socket is unusable, so drop it instead of closing. */
  private drop(frame: string): void {
    if (!this.closed) this.log('warn', 'stream_write_failed', { frame });
    this.markClosed();
    this.ws.terminate();
    if (this.server) void this.reapServer();
  }

  private onClientGone(): void {
    if (!this.closed) this.log('info', 'stream_closed', { phase: this.server ? 'launched' : 'before_launch' });
    this.markClosed();
    if (this.server) void this.reapServer();
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
    this.reaping ??= reapTree(server, { graceMs: this.host.timings.reapGraceMs }).then(
      (report) => {
        this.log(report.survivors.length === 0 ? 'info' : 'error', report.survivors.length === 0 ? 'reap_done' : 'reap_incomplete', {
          pid: server.pid,
          descendants: report.descendants,
          killed: report.killed,
          survivors: report.survivors.length,
        });
      },
      (err) => this.log('error', 'reap_incomplete', { pid: server.pid, ...errorFields(err) }),
    );
    return this.reaping;
  }
}
