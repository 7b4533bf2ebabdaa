import {
  CloseCode,
  isRecord,
  outputLinesOf,
  offeredServerFeatures,
  parseFrame,
  readyFrameIdentity,
  ReservedCloseCode,
  type LanguageId,
  type ReadyFrame,
  type ServerOutputLine,
  type ServerFeature,
  type StatusFrame,
  type WorkspaceIdentity,
} from '@kandev/protocol';
import type { InitializeResult, PublishDiagnosticsParams, ServerCapabilities } from 'vscode-languageserver-protocol';
import { ServerCapabilityIndex } from './capabilities.js';
import { DisposableStore, Emitter, type Disposable, type Clock } from '@kandev/kit';
import { DocumentSync, type OpenDocumentSource } from './documentSync.js';
import type { FeatureBinder, FeatureBinding, FeatureContext } from './features.js';
import { buildInitializeParams, type ClientInfo } from './initializeParams.js';
import { JsonRpcEndpoint, type JsonRpcMessage } from './jsonRpc.js';
import { RequestScheduler } from './requestScheduler.js';
import { failureOf, requestFailureOf, type RequestFailure } from './requestFailures.js';
import { ProgressTracker } from './progress.js';
import { createServerRequestRouter } from './serverRequests.js';
import type { SocketLike } from './socket.js';
import { initializeFailureMessage, type StartingPhase, type StatusMessage } from './status.js';
import { serverFileUri } from './uris.js';
import type { PendingAnswer } from './serverMessages.js';
import type { ServerWindow } from './serverWindow.js';

export interface AttachmentEnv {
  sessionId: string;
  language: LanguageId;
  documents: OpenDocumentSource;
  bindFeatures: FeatureBinder;
  /** Debounce timers and progress timestamps. */
  clock: Clock;
  debounceMs: number;
  clientInfo: ClientInfo;
  locale: () => string | undefined;
  /** Toasts, actions and documents for the server's window/* messages; absent, they are declined. */
  window?: ServerWindow;
  /** A request the person asked for got no answer (requestFailures.ts says which ones count). */
  requestFailed?: (failure: RequestFailure) => void;
}

/** What an attachment says about the step it is in. */
export interface PhaseInfo {
  message?: StatusMessage;
  phase?: StartingPhase;
  /** The installer's own progress line. */
  detail?: string;
}

/** How an attachment reports; the connection ignores reports from any attachment but its current one. */
export interface AttachmentHost {
  onPhase(attachment: LspAttachment, state: 'installing' | 'starting', info: PhaseInfo): void;
  onReadyFrame(attachment: LspAttachment, frame: ReadyFrame): void;
  onReady(attachment: LspAttachment): void;
  onFailed(attachment: LspAttachment, message: StatusMessage): void;
  onReleased(attachment: LspAttachment): void;
  onClosed(attachment: LspAttachment, code: number): void;
  onProgress(attachment: LspAttachment): void;
  /** What the server offers changed: its initialize result arrived, or it (un)registered a capability. */
  onCapabilities(attachment: LspAttachment): void;
  /** The server crashed and the lease restarts it; a `ready{resumed:true}` follows on this socket. */
  onRestarting(attachment: LspAttachment, info: RestartInfo): void;
  /** Output lines of the server (log, trace, stderr): the lease's kept ones on ready, then live ones. */
  onOutput(attachment: LspAttachment, lines: ServerOutputLine[]): void;
}

export interface RestartInfo {
  attempt: number;
  of: number;
  stderrTail?: string;
}

export type AttachmentPhase = 'connecting' | 'installing' | 'initializing' | 'synchronizing' | 'ready' | 'failed';

/**
 * One generation of a connection: one WebSocket, one JSON-RPC endpoint, and everything bound
 * for it (document sync, providers, markers). It touches only what it acquired; after dispose
 * nothing it receives has any effect (S33).
 */
export class LspAttachment implements Disposable {
  /** What is bound to the current server process; replaced when the lease restarts it. */
  private store = new DisposableStore();
  private readonly rpc: JsonRpcEndpoint;
  private readonly semanticRefresh = new Emitter<void>();
  private readonly diagnosticRefresh = new Emitter<void>();
  private readonly inlayHintRefresh = new Emitter<void>();
  private readonly codeLensRefresh = new Emitter<void>();
  private readonly documentSynced = new Emitter<{ path: string; kind: 'open' | 'change' | 'close' }>();
  private disposed = false;
  private opened = false;
  private markClosed!: () => void;
  /**
   * Settles when the socket's close event came (the backend answered the close frame), after a
   * dispose too: a window that lets this server go to make room waits for it before asking again.
   */
  readonly closed = new Promise<void>((resolve) => (this.markClosed = resolve));
  /** A release was asked for: the close that follows is expected. */
  private releaseRequested = false;
  /** The socket closed without anybody asking (a loss): requests still pending then are told as lost. */
  private connectionLost = false;
  private phaseValue: AttachmentPhase = 'connecting';
  private capabilities?: ServerCapabilityIndex;
  private sync?: DocumentSync;
  private binding?: FeatureBinding;
  private readonly earlyRegistrations: unknown[] = [];
  private readonly earlyUnregistrations: unknown[] = [];
  private progressTracker: ProgressTracker;
  /** Questions of this generation's server still on screen: taken away when the generation ends. */
  private readonly pendingQuestions = new Set<PendingAnswer<unknown>>();
  /** Detail of an install_failed frame, shown if the close that follows is 4003 (S12). */
  installError?: string;
  /** The end of the exited server's stderr (server_exited), shown with the 4006 that follows. */
  serverStderr?: string;
  workspace?: WorkspaceIdentity;

  constructor(
    readonly generation: number,
    private readonly socket: SocketLike,
    private readonly env: AttachmentEnv,
    private readonly host: AttachmentHost,
  ) {
    this.progressTracker = new ProgressTracker(() => env.clock.now());
    const route = createServerRequestRouter({
      // Never reached through the lease broker: it answers workspace/configuration itself from the
      // persisted settings (and tells servers about saves). Null is only the answer of last resort.
      configuration: (items) => items.map(() => null),
      registerCapability: (regs) => (this.capabilities ? this.capabilities.register(regs) : this.earlyRegistrations.push(...regs)),
      unregisterCapability: (unregs) => (this.capabilities ? this.capabilities.unregister(unregs) : this.earlyUnregistrations.push(...unregs)),
      semanticTokensRefresh: () => this.semanticRefresh.fire(),
      diagnosticRefresh: () => this.diagnosticRefresh.fire(),
      inlayHintRefresh: () => this.inlayHintRefresh.fire(),
      codeLensRefresh: () => this.codeLensRefresh.fire(),
      applyEdit: async (params) => {
        if (!this.binding || this.disposed) return { applied: false, failureReason: 'the editor is not ready' };
        if (!isRecord(params) || !isRecord(params.edit)) return { applied: false, failureReason: 'the request carries no edit' };
        return this.binding.applyEdit(params as never);
      },
      showMessageRequest: (params) => (env.window ? this.ask(env.window.showMessageRequest(params)) : Promise.resolve(null)),
      showDocument: (params) =>
        env.window && !this.disposed ? this.ask(env.window.showDocument(params, this.workspace)) : Promise.resolve({ success: false }),
    });
    this.rpc = new JsonRpcEndpoint((message) => this.sendFrame(message), {
      onRequest: route,
      onNotification: (method, params) => this.onNotification(method, params),
    });
    socket.onopen = () => {
      if (!this.disposed) this.opened = true;
    };
    socket.onmessage = (event) => {
      if (!this.disposed && typeof event.data === 'string') this.onFrame(event.data);
    };
    socket.onclose = (event) => {
      this.markClosed();
      if (this.disposed) return;
      this.connectionLost = !this.releaseRequested;
      this.host.onClosed(this, typeof event.code === 'number' ? event.code : ReservedCloseCode.Abnormal);
    };
    socket.onerror = () => undefined; // a close event always follows
  }

  get phase(): AttachmentPhase {
    return this.phaseValue;
  }

  /** The features the server offers (initialize result and registrations), once it answered initialize. */
  offeredFeatures(): ServerFeature[] | undefined {
    const index = this.capabilities;
    return index && offeredServerFeatures(index.server, index.dynamicRegistrations());
  }

  get isOpen(): boolean {
    return this.opened && !this.disposed;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  progress(): ReturnType<ProgressTracker['snapshot']> {
    return this.progressTracker.snapshot();
  }

  /** Effective dynamic registrations (for diagnostics and tests). */
  registrations(): unknown[] {
    return this.capabilities?.dynamicRegistrations() ?? [];
  }

  /** Asks the broker to shut the server down; `released` (or a close) answers. */
  release(reason: 'stop' | 'editor_idle'): void {
    this.releaseRequested = true;
    this.sendControl({ control: 'release', reason });
  }

  private sendControl(frame: Record<string, unknown>): void {
    if (this.disposed) return;
    try {
      this.socket.send(JSON.stringify(frame));
    } catch {
      // the close event reports the loss
    }
  }

  private sendFrame(message: JsonRpcMessage): void {
    if (this.disposed) throw new Error('attachment disposed');
    this.socket.send(JSON.stringify(message));
  }

  private onFrame(text: string): void {
    const parsed = parseFrame(text);
    if (parsed.kind === 'jsonrpc') this.rpc.handle(parsed.message);
    else if (parsed.kind === 'status') this.onStatus(parsed.frame);
    // control frames are browser-to-backend; invalid frames are ignored rather than trusted
  }

  private onStatus(frame: StatusFrame): void {
    switch (frame.status) {
      case 'installing': {
        if (this.phaseValue !== 'connecting' && this.phaseValue !== 'installing') return;
        this.phaseValue = 'installing';
        // Repeated installing frames carry the installer's latest progress line (shown as written).
        const detail = typeof frame.detail === 'string' && frame.detail.trim() !== '' ? frame.detail : undefined;
        this.host.onPhase(this, 'installing', { message: { key: 'message.installing', params: { language: this.env.language } }, detail });
        return;
      }
      case 'installed':
        if (this.phaseValue !== 'installing') return;
        this.host.onPhase(this, 'starting', { message: { key: 'message.installed' }, phase: 'installed' });
        return;
      case 'install_failed':
        this.installError = typeof frame.error === 'string' ? frame.error : undefined;
        if (this.installError) this.host.onPhase(this, 'installing', { message: { text: this.installError } });
        return;
      case 'ready':
        if (this.phaseValue !== 'connecting' && this.phaseValue !== 'installing') return;
        this.onReady(frame as ReadyFrame);
        return;
      case 'synchronized':
        if (this.phaseValue !== 'synchronizing') return;
        this.phaseValue = 'ready';
        this.host.onReady(this);
        return;
      case 'released':
        this.host.onReleased(this);
        return;
      case 'server_output':
        this.host.onOutput(this, outputLinesOf(frame.lines));
        return;
      case 'server_exited':
        this.serverStderr = typeof frame.stderrTail === 'string' && frame.stderrTail !== '' ? frame.stderrTail : undefined;
        return;
      case 'restarting':
        if (this.phaseValue === 'failed' || this.phaseValue === 'installing') return;
        this.restarting(frame);
        return;
      case 'reaped':
      case 'server_stderr':
        // The task host's to the broker (a process tree gone, raw stderr lines): the page gets
        // stderr as `server_output` lines and a release as `released`, never these.
        return;
    }
  }

  /**
   * The server process died and the lease restarts it: everything bound to that process goes
   * (providers, markers, document sync), and the `ready{resumed:true}` that follows rebuilds them
   * and reopens the documents, as on a reattach.
   */
  private restarting(frame: Extract<StatusFrame, { status: 'restarting' }>): void {
    for (const pending of [...this.pendingQuestions]) pending.cancel();
    this.store.dispose();
    this.store = new DisposableStore();
    this.capabilities = undefined;
    this.sync = undefined;
    this.binding = undefined;
    this.phaseValue = 'connecting';
    this.progressTracker = new ProgressTracker(() => this.env.clock.now());
    this.host.onProgress(this);
    const stderrTail = typeof frame.stderrTail === 'string' && frame.stderrTail !== '' ? frame.stderrTail : undefined;
    this.serverStderr = stderrTail;
    this.host.onRestarting(this, { attempt: Number(frame.attempt) || 1, of: Number(frame.of) || 1, ...(stderrTail ? { stderrTail } : {}) });
  }

  private onReady(frame: ReadyFrame): void {
    // packages/protocol's one ready-frame rule: an invalid identity is refused whole, never filtered.
    const identity = readyFrameIdentity(frame);
    if (!identity.ok) {
      this.fail({ key: 'message.protocolError' });
      return;
    }
    this.workspace = identity.identity;
    this.host.onReadyFrame(this, frame);
    if (frame.output !== undefined) this.host.onOutput(this, outputLinesOf(frame.output));
    if (frame.resumed === true) this.resume(frame);
    else void this.initialize(this.workspace);
  }

  /** resumed:false: the process launched; this browser owns the initialize exchange. */
  private async initialize(workspace: WorkspaceIdentity): Promise<void> {
    this.phaseValue = 'initializing';
    this.host.onPhase(this, 'starting', { message: { key: 'message.launched' }, phase: 'awaitingInitialize' });
    let result: InitializeResult;
    try {
      result = await this.rpc.request<InitializeResult>(
        'initialize',
        buildInitializeParams(workspace, this.env.clientInfo, this.env.locale(), this.env.language),
      );
    } catch (err) {
      if (this.disposed) return;
      this.fail(initializeFailureMessage(err));
      return;
    }
    if (this.disposed) return;
    const capabilities = isRecord(result) && isRecord(result.capabilities) ? (result.capabilities as ServerCapabilities) : {};
    this.rpc.notify('initialized', {});
    if (!this.activate(capabilities, [])) return;
    this.phaseValue = 'ready';
    this.host.onReady(this);
  }

  /** resumed:true: no initialize; rebuild from what the broker retained, reopen, then attachment-ready. */
  private resume(frame: ReadyFrame): void {
    const result = frame.initializeResult;
    if (!isRecord(result) || !isRecord(result.capabilities)) {
      this.fail({ key: 'message.protocolError' });
      return;
    }
    if (isRecord(frame.progress)) {
      this.progressTracker = new ProgressTracker(() => this.env.clock.now(), frame.progress);
      this.host.onProgress(this);
    }
    if (!this.activate(result.capabilities as ServerCapabilities, Array.isArray(frame.registrations) ? frame.registrations : [])) return;
    this.phaseValue = 'synchronizing';
    this.host.onPhase(this, 'starting', { message: { key: 'message.synchronizing' }, phase: 'synchronizing' });
    this.sendControl({ control: 'attachment-ready' });
  }

  /** Providers from capabilities, then documents: what both the fresh and the resumed path share. */
  private activate(server: ServerCapabilities, registrations: readonly unknown[]): boolean {
    const workspace = this.workspace as WorkspaceIdentity;
    const capabilities = this.store.add(new ServerCapabilityIndex(server, registrations));
    capabilities.register(this.earlyRegistrations.splice(0));
    capabilities.unregister(this.earlyUnregistrations.splice(0));
    this.capabilities = capabilities;
    this.store.add(capabilities.onDidChange(() => this.host.onCapabilities(this)));
    this.host.onCapabilities(this);
    // The person's requests go first: the editor's own work waits while they type or ask.
    const scheduler = this.store.add(new RequestScheduler({ clock: this.env.clock, send: (method, params, token) => this.rpc.request(method, params, token) }));
    const sync = this.store.add(
      new DocumentSync({
        notify: (method, params) => {
          scheduler.noteNotification(method);
          this.rpc.notify(method, params);
        },
        sync: () => capabilities.sync(),
        serverUri: (path) => serverFileUri(workspace.workspaceUri, path),
        clock: this.env.clock,
        debounceMs: this.env.debounceMs,
        onSent: (path, kind) => this.documentSynced.fire({ path, kind }),
        onEdit: () => scheduler.noteEdit(),
      }),
    );
    this.sync = sync;
    const context: FeatureContext = {
      sessionId: this.env.sessionId,
      language: this.env.language,
      generation: this.generation,
      capabilities,
      workspace,
      request: (method, params, token) => this.tellFailure(method, scheduler.request(method, params, token)),
      failureOf: (feature, error) => failureOf(feature, error, this.connectionLost),
      notify: (method, params) => this.rpc.notify(method, params),
      flush: (path) => sync.flush(path),
      isOpen: (path) => sync.isOpen(path),
      openPaths: () => sync.openPaths(),
      clock: this.env.clock,
      onSemanticTokensRefresh: this.semanticRefresh.event,
      onDiagnosticRefresh: this.diagnosticRefresh.event,
      onInlayHintRefresh: this.inlayHintRefresh.event,
      onCodeLensRefresh: this.codeLensRefresh.event,
      onDocumentSync: this.documentSynced.event,
    };
    try {
      this.binding = this.store.add(this.env.bindFeatures(context));
    } catch {
      this.fail({ key: 'message.bindFailed' });
      return false;
    }
    const docs = this.env.documents;
    for (const doc of docs.documents()) sync.open(doc);
    this.store.add(docs.onDidOpen((doc) => sync.open(doc)));
    this.store.add(docs.onDidClose((doc) => sync.close(doc.path)));
    this.store.add(docs.onDidSave(({ document, text }) => sync.didSave(document.path, text)));
    return true;
  }

  private fail(message: StatusMessage): void {
    this.phaseValue = 'failed';
    // The process is of no use to anyone: ask the broker to shut it down rather than keep it detached.
    this.release('stop');
    this.host.onFailed(this, message);
  }

  private onNotification(method: string, params: unknown): void {
    if (method === 'textDocument/publishDiagnostics') {
      if (this.binding && isRecord(params) && typeof params.uri === 'string' && Array.isArray(params.diagnostics)) {
        this.binding.publishDiagnostics(params as unknown as PublishDiagnosticsParams);
      }
    } else if (method === '$/progress') {
      if (this.progressTracker.update(params)) this.host.onProgress(this);
    } else if (method === 'window/showMessage') this.env.window?.showMessage(params);
    // window/logMessage and $/logTrace reach the page as the broker's server_output lines;
    // telemetry/event is not shown.
  }

  /** The person is told when a request they asked for got no answer; its caller still gets the rejection. */
  private tellFailure<R>(method: string, pending: Promise<R>): Promise<R> {
    const report = this.env.requestFailed;
    if (!report) return pending;
    return pending.catch((error: unknown) => {
      const failure = requestFailureOf(method, error, this.connectionLost);
      if (failure) report(failure);
      throw error;
    });
  }

  /** A question on screen until answered or until this generation ends (its request is then answered by the broker). */
  private ask<T>(pending: PendingAnswer<T>): Promise<T> {
    this.pendingQuestions.add(pending as PendingAnswer<unknown>);
    return pending.answer.finally(() => this.pendingQuestions.delete(pending as PendingAnswer<unknown>));
  }

  /** Ends this generation: providers, markers and sync go; the socket closes (a detach, not a release). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const pending of [...this.pendingQuestions]) pending.cancel();
    try {
      this.store.dispose();
    } finally {
      this.rpc.dispose();
      this.semanticRefresh.dispose();
      this.diagnosticRefresh.dispose();
      this.inlayHintRefresh.dispose();
      this.codeLensRefresh.dispose();
      this.documentSynced.dispose();
      try {
        this.socket.close(CloseCode.Normal);
      } catch {
        // already closed
      }
    }
  }
}
