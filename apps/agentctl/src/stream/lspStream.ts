import { StderrRelay } from './stderrRelay.js';
import {
  CloseCode,
  ReservedCloseCode,
  SERVER_STDERR_TAIL_BYTES,
  type HostReadyFrame,
  type LanguageId,
  type LiveStreamAccount,
  type ReapedFrame,
  type ServerExitedFrame,
  type WorkspaceIdentity,
  WORKSPACE_EVENTS_WINDOW_MS,
} from '@kandev/protocol';
import { type Clock, type Disposable, DisposableStore, after, deadline, systemClock } from '@kandev/kit';
import { DEFAULT_KEEPALIVE, FrameSocket, type KeepaliveTiming, type WsLike } from '@kandev/node-transport';
import { startBridge, type Bridge, type BridgeEnd } from '../bridge/bridge.js';
import { catalogLanguage, type CatalogLanguage } from '../catalog/catalog.js';
import { errorFields, type LogEvent, type LogFields, type Logger, type LogLevel } from '../base/log.js';
import type { LaunchedServer } from '../process/launch.js';
import type { ResolveFs } from '../resolve/resolveServer.js';
import { childEnv, type TaskEnv } from '../env/taskEnv.js';
import { bridgeEndOutcome } from './closeRules.js';
import type { InstallLanguageServer } from '../install/seam.js';
import { runLauncherPhase } from './launcherPhase.js';
import { OutputTail } from './outputTail.js';
import { StreamAccount } from './streamAccount.js';
import type { StreamParamsResult } from './params.js';
import { reapServerTree, startServer, type ServerProcessContext } from './serverProcess.js';
import { findTrustedTools } from '../trust/trustedTools.js';
import { fillLauncherPaths, findLauncherPaths } from './launcherPaths.js';
import { networkSandbox } from '../trust/networkSandbox.js';
import { untrustedEnvOverrides } from '../trust/untrustedEnv.js';
import type { WorkspaceWatcher } from '../watch/workspaceWatcher.js';
import { WatchedFilesFeed } from './watchedFilesFeed.js';

/** Distinct matched paths one window may carry to a server (a checkout of 20,000 files still fits). */
const MAX_WATCHED_CHANGES_PER_WINDOW = 20_000;

export interface StreamTimings {
  wsWriteDeadlineMs: number;
  stdinCutoffMs: number;
  reapGraceMs: number;
  exitFlushMs: number;
  /** Pings to the client (the backend); default WS_PING_INTERVAL_MS x WS_PING_MAX_MISSES. */
  keepalive?: KeepaliveTiming;
  /** On a release, how long the server gets to act on `exit` by itself before it is reaped. */
  exitReadGraceMs: number;
  /** The socket's deadline and ping timers and the bridge's exit flush and stdin cutoff; default the system clock. */
  clock?: Clock;
  /**
   * How long a launched server outlives its backend's socket when that socket is lost without a
   * close (the backend died or restarts): the stream is parked for a backend to resume, then
   * closed and reaped. 0 or absent: a lost socket ends the stream at once.
   */
  parkGraceMs?: number;
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
  /** The workspace's watcher: the server hears of the changes its registered watchers match. */
  watcher?: WorkspaceWatcher;
}

/**
 * One task-host LSP stream (docs/architecture.md section 3): catalog -> resolve -> install (launcherPhase.ts,
 * installPhase.ts) -> launch -> bridge. Everything it acquires (install, process tree, bridge) it
 * disposes itself; closes never carry a reason text, the detail goes to the log.
 */
export class LspStream {
  private readonly abort = new AbortController();
  /** The WebSocket to the backend: write deadline, byte watermarks (the server's stdout pauses above the high one), pings. */
  private socket: FrameSocket;
  /** This stream's listeners on the current socket (a resumed stream moves to a new one). */
  private socketListeners = new DisposableStore();
  /** Set while parked: the timer that ends the stream when no backend resumes it in time. */
  private parkTimer: Disposable | undefined;
  private readonly account = new StreamAccount();
  private readonly env: Record<string, string>;
  private server: LaunchedServer | undefined;
  private bridge: Bridge | undefined;
  private watchedFiles: WatchedFilesFeed | undefined;
  private closed = false;
  private readonly closedSignal: Promise<void>;
  private signalClosed: () => void = () => {};
  private reaping: Promise<boolean> | undefined;
  /** The launched server's language and the end of its stderr, for the server_exited frame. */
  private launched: { language: LanguageId; stderrTail: OutputTail } | undefined;
  /** The launched server's stderr lines to the backend (the lease's Output). */
  private stderrRelay: StderrRelay | undefined;
  private running: Promise<void> | undefined;

  constructor(
    ws: WsLike,
    private readonly params: StreamParamsResult,
    private readonly host: StreamHost,
    private readonly id: number,
  ) {
    // Untrusted (the default): resolve, install and launch with the guarded env (docs/workspace-trust.md).
    const guards =
      params.ok && !params.value.trustWorkspaceTools ? untrustedEnvOverrides(params.value.language, host.env, host.workspaceReal, host.platform) : {};
    this.env = childEnv(host.env, guards, host.platform);
    this.closedSignal = new Promise((resolve) => (this.signalClosed = resolve));
    this.socket = this.wrap(ws);
  }

  get streamId(): number {
    return this.id;
  }

  /** The socket's bounds and pings, and this stream's listeners on it. */
  private wrap(ws: WsLike): FrameSocket {
    const timings = this.host.timings;
    const socket = new FrameSocket(ws, {
      writeDeadlineMs: timings.wsWriteDeadlineMs,
      // The backend is pinged; one gone without a close (hung, lost network) is reaped for, or parked.
      keepalive: timings.keepalive ?? DEFAULT_KEEPALIVE,
      // The backend drains this stream always; one that still answers is slow, not gone.
      patientWithLivePeer: true,
      ...(timings.clock ? { clock: timings.clock } : {}),
    });
    const listeners = new DisposableStore();
    listeners.add(socket.onClose((code) => this.onClientGone(code)));
    listeners.add(socket.onWriteTimeout(() => this.onWriteStuck()));
    listeners.add(socket.onDead(() => this.onClientUnresponsive()));
    this.socketListeners = listeners;
    return socket;
  }

  /** What a backend re-adopting this stream needs; undefined before the server launched. */
  liveAccount(): LiveStreamAccount | undefined {
    if (!this.params.ok || !this.bridge || this.closed) return undefined;
    const account: LiveStreamAccount = {
      stream: this.id,
      language: this.params.value.language,
      trustWorkspaceTools: this.params.value.trustWorkspaceTools,
      parked: this.bridge.parked,
      documents: this.account.openDocuments(),
      maxRequestId: this.account.maxRequestId,
    };
    if (this.server?.child.pid !== undefined) account.pid = this.server.child.pid;
    return account;
  }

  /**
   * A backend takes this stream over (after a restart): a parked stream is bridged to `ws` again;
   * one still bound to an old socket (its backend hung, or is being replaced) lets that one go
   * first. False when there is nothing to resume: the caller closes `ws` (the server is gone).
   */
  resume(ws: WsLike): boolean {
    if (this.closed || !this.bridge) return false;
    if (!this.bridge.parked) {
      const old = this.socket;
      this.park('takeover');
      old.terminate();
    }
    this.parkTimer?.dispose();
    this.parkTimer = undefined;
    this.socket = this.wrap(ws);
    this.bridge.rebind(this.socket);
    this.log('info', 'stream_resumed');
    return true;
  }

  /** Lets the current socket go and keeps the server for a backend to resume; bounded by the grace. */
  private park(why: 'lost' | 'takeover'): void {
    if (!this.bridge || this.bridge.parked) return;
    this.socketListeners.dispose();
    this.bridge.park();
    this.log('info', 'stream_parked', { reason: why });
    const graceMs = this.host.timings.parkGraceMs ?? 0;
    this.parkTimer?.dispose();
    this.parkTimer = after(this.host.timings.clock ?? systemClock, graceMs, () => {
      this.parkTimer = undefined;
      if (!this.bridge?.parked || this.closed) return;
      this.log('warn', 'stream_park_expired', { graceMs });
      this.close(CloseCode.GoingAway);
    });
  }

  /** A lost socket (no close frame: the backend died or restarts) parks a bridged stream when parking is on. */
  private parks(code: number | undefined): boolean {
    return (
      (this.host.timings.parkGraceMs ?? 0) > 0 &&
      !this.closed &&
      this.bridge !== undefined &&
      !this.bridge.parked &&
      (code === undefined || code === ReservedCloseCode.Abnormal)
    );
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
    this.stderrRelay?.stop();
    this.parkTimer?.dispose();
    this.parkTimer = undefined;
    this.abort.abort();
    this.signalClosed();
  }

  private log(level: LogLevel, event: LogEvent, fields: LogFields = {}): void {
    this.host.logger.log(level, event, { stream: this.id, language: this.params.ok ? this.params.value.language : undefined, ...fields });
  }

  private async run(): Promise<void> {
    if (!this.params.ok) {
      this.log('warn', 'stream_refused', { reason: 'bad_params', detail: this.params.error });
      this.close(CloseCode.Unavailable);
      return;
    }
    const { language: id, autoInstall } = this.params.value;
    const language = catalogLanguage(id);
    this.log('info', 'stream_open', { autoInstall, trustWorkspaceTools: this.params.value.trustWorkspaceTools });
    const result = await runLauncherPhase({
      language,
      env: this.env,
      platform: this.host.platform,
      workspaceReal: this.host.workspaceReal,
      signal: this.abort.signal,
      send: (frame) => this.socket.sendConfirmed(JSON.stringify(frame)),
      isClosed: () => this.closed,
      log: (level, event, fields) => this.log(level, event, fields),
      ...(this.host.timings.clock ? { clock: this.host.timings.clock } : {}),
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

  /** The task's workspace is not trusted (the default): guarded env, no network. */
  private get untrusted(): boolean {
    return this.params.ok && !this.params.value.trustWorkspaceTools;
  }

  private get processContext(): ServerProcessContext {
    const { env, host, id } = this;
    return {
      env,
      platform: host.platform,
      cwd: host.workspace.workspacePath,
      logger: host.logger,
      streamId: id,
      log: (level, event, fields) => this.log(level, event, fields),
      ...(this.untrusted ? { sandbox: networkSandbox(host.platform) } : {}),
    };
  }

  private async launch(language: CatalogLanguage, launcher: string): Promise<void> {
    const server = await startServer(this.processContext, language, launcher);
    if (!server) {
      this.close(CloseCode.StartFailed);
      return;
    }
    this.server = server;
    const tail = new OutputTail(SERVER_STDERR_TAIL_BYTES);
    this.launched = { language: language.id, stderrTail: tail };
    const relay = new StderrRelay(() => this.socket);
    this.stderrRelay = relay;
    server.child.stderr.on('data', (chunk: string | Buffer) => {
      const text = chunk.toString();
      tail.append(text);
      relay.push(text);
    });
    server.child.stderr.on('end', () => relay.end());
    if (this.closed) {
      void this.reapServer();
      return;
    }
    const ready: HostReadyFrame = { status: 'ready', language: language.id, ...this.host.workspace, stream: this.id };
    if (this.untrusted) {
      ready.trustedTools = {
        ...findTrustedTools(language.id, launcher, this.env, this.host.workspaceReal, this.host.platform),
        network: networkSandbox(this.host.platform).network,
      };
    }
    if (!(await this.socket.sendConfirmed(JSON.stringify(ready)))) {
      this.drop('ready');
      return;
    }
    if (this.closed) return;
    this.stderrRelay?.start();
    const timings = this.host.timings;
    const watcher = this.host.watcher;
    if (watcher) {
      this.watchedFiles = new WatchedFilesFeed({
        watcher,
        workspacePath: this.host.workspace.workspacePath,
        clock: timings.clock ?? systemClock,
        windowMs: WORKSPACE_EVENTS_WINDOW_MS,
        maxPaths: MAX_WATCHED_CHANGES_PER_WINDOW,
        notify: (text) => this.bridge?.notifyServer(text),
        onOverflow: () => this.log('warn', 'watch_overflow', { maxChanges: MAX_WATCHED_CHANGES_PER_WINDOW }),
      });
    }
    const launcherPaths = findLauncherPaths(language.id, launcher, this.host.workspaceReal, this.host.platform);
    this.bridge = startBridge(
      this.socket,
      server,
      {
        stdinCutoffMs: timings.stdinCutoffMs,
        exitFlushMs: timings.exitFlushMs,
        observe: (envelope, text) => this.account.observe(envelope, text),
        onRefused: (kind) => this.log('warn', 'stream_frame_refused', { reason: 'json_too_deep', kind }),
        onWatchedFiles: (watchers) => this.watchedFiles?.setWatchers(watchers),
        ...(launcherPaths ? { rewriteInitialize: (text: string) => fillLauncherPaths(text, launcherPaths, this.untrusted) } : {}),
        ...(timings.clock ? { clock: timings.clock } : {}),
      },
      (end) => this.onBridgeEnd(end),
    );
  }

  private onBridgeEnd(end: BridgeEnd): void {
    const outcome = bridgeEndOutcome(end);
    if (end.kind === 'release_requested') {
      this.log(outcome.level, outcome.event, outcome.fields);
      void this.releaseAndReport();
      return;
    }
    this.log(outcome.level, outcome.event, end.kind === 'stdin_stuck' ? { cutoffMs: this.host.timings.stdinCutoffMs } : outcome.fields);
    const code = outcome.code;
    if (code === undefined) {
      this.markClosed();
      void this.reapServer();
      return;
    }
    // The close tells the backend that the server is over (4006 "confirmed exit"), so it follows
    // the reap: nothing of the tree runs once the backend sees it. An exit is explained first by
    // the end of the server's stderr (the backend shows it in the status details).
    void this.reapServer().then(async () => {
      if (code === CloseCode.ServerExited && !this.closed) {
        const stderrTail = this.launched?.stderrTail.value();
        const exited: ServerExitedFrame = {
          status: 'server_exited',
          language: this.launched?.language as LanguageId,
          ...(stderrTail ? { stderrTail } : {}),
          // Ended here because it stopped reading its stdin (the stdin cutoff), not by itself.
          ...(end.kind === 'stdin_stuck' ? { cause: 'stdin_timeout' as const } : {}),
        };
        if (!(await this.socket.sendConfirmed(JSON.stringify(exited)))) return this.drop('server_exited');
      }
      this.close(code);
    });
  }

  /** Closes the WebSocket once, with a code and never a reason text, and ends the stream. */
  private close(code: number): void {
    if (this.closed) return;
    this.markClosed();
    try {
      this.socket.close(code);
    } catch {
      this.socket.terminate();
    }
    void this.reapServer();
  }

  /** A status frame could not be delivered: the socket is unusable, so drop it instead of closing. */
  private drop(frame: string): void {
    if (!this.closed) this.log('warn', 'stream_write_failed', { frame });
    this.markClosed();
    this.socket.terminate();
    void this.reapServer();
  }

  private onClientGone(code?: number): void {
    if (this.parks(code)) return this.park('lost');
    if (!this.closed) this.log('info', 'stream_closed', { phase: this.server ? 'launched' : 'before_launch' });
    this.markClosed();
    // After the bridge's own close listener (same close, registered later) has said how it ended:
    // reaping disposes the bridge, and a listener disposed mid-close is not called any more.
    queueMicrotask(() => void this.reapServer());
  }

  /** The backend stopped answering pings: nobody can use this server any more; reap it. */
  private onClientUnresponsive(): void {
    if (this.closed) return;
    // The socket terminates itself next; its close (1006) parks the stream when parking is on.
    if (this.parks(undefined)) return;
    this.log('warn', 'stream_client_unresponsive', { intervalMs: this.host.timings.keepalive?.intervalMs ?? DEFAULT_KEEPALIVE.intervalMs });
    // The socket terminates itself once its dead listeners ran.
    this.markClosed();
    void this.reapServer();
  }

  private onWriteStuck(): void {
    this.log('warn', 'stream_write_timeout', { deadlineMs: this.host.timings.wsWriteDeadlineMs });
    if (this.parks(undefined)) return;
    // A close frame would queue behind the data the peer is not taking: the socket terminates
    // itself once its write-timeout listeners ran.
    this.markClosed();
    void this.reapServer();
  }

  /**
   * The backend's release handshake: it sent `shutdown`, `exit`, then `release-stream`. The server
   * gets a short grace to act on `exit` by itself, then its tree is reaped; only then does the
   * backend hear `reaped` (and the close), so its `released` to the browser is true when sent.
   */
  private async releaseAndReport(): Promise<void> {
    const server = this.server;
    if (server && !server.hasExited()) {
      const grace = deadline(this.host.timings.clock ?? systemClock, this.host.timings.exitReadGraceMs);
      await Promise.race([server.exited, grace.reached]);
      grace.dispose();
    }
    const clean = await this.reapServer();
    if (this.closed) return;
    const reaped: ReapedFrame = { status: 'reaped', clean };
    if (!(await this.socket.sendConfirmed(JSON.stringify(reaped)))) {
      this.drop('reaped');
      return;
    }
    this.close(CloseCode.Normal);
  }

  private reapServer(): Promise<boolean> {
    const server = this.server;
    if (!server) return Promise.resolve(true);
    // Stop bridging first: the exit we are about to cause is not a "server exited" event.
    this.bridge?.dispose();
    this.watchedFiles?.dispose();
    this.reaping ??= reapServerTree(this.processContext, server, this.host.timings.reapGraceMs);
    return this.reaping;
  }
}
