/**
 * The lease broker: a deterministic state machine. `handle(event, now)` applies one event and
 * returns the effects to perform, in order. No sockets, timers or clocks inside; see README.md.
 */
import {
  BROWSER_REQUEST_TIMEOUT_MS,
  BadInputCloseCode,
  CloseCode,
  parseFrame,
  SERVER_RESTART_LIMIT,
  type ParsedFrame,
  type ReadyFrame,
  type ReleaseReason,
  type StatusFrame,
  type UserSettings,
  type TrustedToolPins,
  type WireShapeResult,
  type WorkspaceIdentity,
  parseTrustedToolPins,
  readyFrameIdentity,
  RpcErrorCode,
} from '@kandev/protocol';
import { attachmentReady, routeBrowserMessage } from './browserRpc.js';
import { decideAdmission, DEFAULT_MAX_LEASES, releaseSlotOnce } from './capacity.js';
import type { BrokerTiming, EventContext } from './context.js';
import { DETACHED_DEADLINE_MS } from './deadlines.js';
import { classify, errorResponse, notification } from './jsonrpc.js';
import {
  createLease,
  exceedsRetainedLimit,
  isDetached,
  newAttachment,
  releaseOf,
  restartOf,
  retainedBytes,
  type Attachment,
  type Lease,
  type LeasePhaseKind,
} from './lease.js';
import { HOLDER_PROBE_MS, HolderProbes, holderToProbe } from './holderProbe.js';
import { LeaseTable } from './leaseTable.js';
import { collectMetrics, newCounters, type BrokerMetrics } from './metrics.js';
import { Outbox } from './outbox.js';
import { afterShutdown, finishRelease, outcomeOfClose, startRelease } from './release.js';
import { admitRestart, beginRestart, boundedTail, initializeRestarted, serverExitedFrame } from './restart.js';
import { answerForwardedLocally, isOutputNotification, leaseConfig, relayServerRaw, routeServerMessage, sendInitialized } from './serverRpc.js';
import { keepStderr } from './leaseOutput.js';
import { setTraceIfChanged } from './trace.js';
import { configFingerprint, didChangeConfiguration, SettingsBook } from './settings.js';
import { TimerRegistry, timerIdOf } from './timers.js';
import type {
  AttachmentId,
  AttachReason,
  BrokerEvent,
  BrowserFrameEvent,
  RawRpcFrame,
  BrokerOptions,
  BrowserCloseCode,
  BrowserConnected,
  DetachReason,
  Effect,
  EndReason,
  LeaseId,
  LeaseOwnerKind,
  LogEvent,
  LogReason,
  RestartProcess,
  SessionId,
  UpstreamCloseCode,
  UserId,
} from './types.js';

type InitializingRestart = Extract<RestartProcess, { step: 'initializing' }>;
import { classifyUpstreamClose } from './upstreamClose.js';
import { adoptedLease, persistableOf, persistSignature, type PersistableLease } from './adoption.js';

export const DEFAULT_SHUTDOWN_WAIT_MS = 5_000;
export const DEFAULT_REAP_WAIT_MS = 10_000;

/** Read-only view of one lease, for the metrics endpoint's neighbours, debugging and tests. */
export interface LeaseView {
  id: LeaseId;
  sessionId: SessionId;
  userId: UserId;
  ownerKind: LeaseOwnerKind;
  language: string;
  phase: LeasePhaseKind;
  attachmentId?: AttachmentId;
  generation: number;
  detachedAt?: number;
  endReason?: EndReason;
  initialize: 'none' | 'pending' | 'answered';
  pendingRequests: number;
  trackedRequestBytes: number;
  registrations: unknown[];
  retainedBytes: number;
}

export class LeaseBroker {
  private readonly table = new LeaseTable();
  /** Live attachments (browser sockets) -> their lease. */
  private readonly attachments = new Map<AttachmentId, LeaseId>();
  private readonly timers = new TimerRegistry();
  private readonly settings = new SettingsBook();
  private readonly counters = newCounters();
  private readonly maxLeases: number;
  private readonly timing: BrokerTiming;
  private readonly newLeaseId: () => LeaseId;
  private readonly probes = new HolderProbes();
  private readonly holderProbeMs: number;
  private seq = 0;
  private stopped = false;

  constructor(options: BrokerOptions) {
    this.maxLeases = options.maxLeases ?? DEFAULT_MAX_LEASES;
    this.newLeaseId = options.newLeaseId;
    this.holderProbeMs = options.holderProbeMs ?? HOLDER_PROBE_MS;
    this.timing = {
      detachedDeadlineMs: options.detachedDeadlineMs ?? DETACHED_DEADLINE_MS,
      shutdownWaitMs: options.shutdownWaitMs ?? DEFAULT_SHUTDOWN_WAIT_MS,
      reapWaitMs: options.reapWaitMs ?? DEFAULT_REAP_WAIT_MS,
      requestTimeoutMs: options.requestTimeoutMs ?? BROWSER_REQUEST_TIMEOUT_MS,
      restartLimit: options.restartLimit ?? SERVER_RESTART_LIMIT,
    };
  }

  /** Applies one event at time `now` (epoch ms) and returns the effects to perform, in order. */
  handle(event: BrokerEvent, now: number): Effect[] {
    const out = new Outbox(now, this.timers);
    switch (event.type) {
      case 'browserConnected':
        this.connect(event, out);
        break;
      case 'browserFrame':
        this.browserFrame(event.attachmentId, event.frame, out);
        break;
      case 'browserClosed':
        this.browserGone(event.attachmentId, 'browser_closed', out);
        break;
      case 'browserWriteTimedOut':
        this.browserGone(event.attachmentId, 'write_timeout', out);
        break;
      case 'upstreamFrame':
        this.upstreamFrame(event.leaseId, event.frame, out);
        break;
      case 'upstreamClosed':
        this.upstreamClosed(event.leaseId, event.code, out);
        break;
      case 'timerFired':
        this.timerFired(event.timerId, out);
        break;
      case 'holderAnswered':
        this.holderProbed(event.newcomer, true, out);
        break;
      case 'holderSilent':
        this.holderProbed(event.newcomer, false, out);
        break;
      case 'settingsChanged':
        this.observeSettings(event.userId, event.settings, out);
        break;
      case 'sessionStopped':
        this.sessionStopped(event.sessionId, out);
        break;
      case 'shutdown':
        this.shutdown(out);
        break;
      case 'leaseAdopted':
        this.adopt(event, out);
        break;
    }
    return out.effects;
  }

  /**
   * What changed in the resumable state of the leases since `known` (lease id -> signature): the
   * leases to write again, and the ids no longer resumable (ended, or restarting a crashed server).
   */
  journalChanges(known: ReadonlyMap<LeaseId, string>): { save: PersistableLease[]; remove: LeaseId[] } {
    const save: PersistableLease[] = [];
    const live = new Set<LeaseId>();
    for (const lease of this.table.all()) {
      const signature = persistSignature(lease);
      if (signature === undefined) continue;
      live.add(lease.id);
      if (known.get(lease.id) === signature) continue;
      const persisted = persistableOf(lease, signature);
      if (persisted) save.push(persisted);
    }
    const remove = [...known.keys()].filter((id) => !live.has(id));
    return { save, remove };
  }

  metrics(): BrokerMetrics {
    return collectMetrics(this.table.all(), this.counters, this.maxLeases);
  }

  lease(leaseId: LeaseId): LeaseView | undefined {
    const lease = this.table.get(leaseId);
    return lease && viewOf(lease);
  }

  leases(): LeaseView[] {
    return this.table.all().map(viewOf);
  }

  /**
   * True when a server notification `method` would change nothing on this lease now: no browser to
   * deliver it to and not one the lease retains ($/progress). A pure query; lets the wiring drop a
   * flood for a detached lease without parsing it. Must agree with serverRpc's serverNotification.
   */
  dropsServerNotification(leaseId: LeaseId, method: string): boolean {
    const lease = this.table.get(leaseId);
    if (!lease || method === '$/progress' || isOutputNotification(method)) return false;
    return !lease.attachment || lease.phase.kind !== 'running';
  }

  /** The lease a live attachment is on. */
  leaseOf(attachmentId: AttachmentId): LeaseId | undefined {
    return this.attachments.get(attachmentId);
  }

  settingsRevision(userId: UserId): number {
    return this.settings.revision(userId);
  }

  /** Timers armed and not yet fired or cancelled (a leak detector for tests). */
  get armedTimers(): number {
    return this.timers.size;
  }

  private contextFor(out: Outbox): EventContext {
    return { out, settings: this.settings, timing: this.timing };
  }

  // -------------------------------------------------------------------------------------------
  // Admission and attachment
  // -------------------------------------------------------------------------------------------

  private connect(e: BrowserConnected, out: Outbox): void {
    if (this.stopped) return out.closeBrowser(e.attachmentId, CloseCode.GoingAway);
    // Attachment ids are unique per socket; a repeated one is a wiring defect and changes nothing.
    if (this.attachments.has(e.attachmentId) || this.probes.has(e.attachmentId)) return;
    const holder = holderToProbe(e, e.leaseHint === undefined ? undefined : this.table.get(e.leaseHint));
    if (holder !== undefined) {
      // Admitted once the holder answered or stayed silent (holderProbe.ts).
      this.probes.hold({ connected: e, holder });
      out.push({ type: 'probeBrowser', attachmentId: holder, newcomer: e.attachmentId, timeoutMs: this.holderProbeMs });
      out.arm({ kind: 'holderProbe', newcomer: e.attachmentId }, this.holderProbeMs);
      return;
    }
    this.admit(e, out);
  }

  /**
   * The holder of the newcomer's hinted lease answered (alive: C10, the newcomer is admitted
   * without it) or did not (C05: it is dropped and detached first, so the newcomer resumes it).
   */
  private holderProbed(newcomer: AttachmentId, alive: boolean, out: Outbox): void {
    const held = this.probes.take(newcomer);
    if (!held) return; // concluded already: a late answer, silence or deadline
    out.cancel(timerIdOf({ kind: 'holderProbe', newcomer }));
    if (!alive && this.attachmentOf(held.holder)) {
      out.push({ type: 'terminateBrowser', attachmentId: held.holder });
      this.browserGone(held.holder, 'browser_closed', out);
    }
    if (this.stopped) return out.closeBrowser(newcomer, CloseCode.GoingAway);
    this.admit(held.connected, out);
  }

  private admit(e: BrowserConnected, out: Outbox): void {
    if (!e.executorSupported) return out.closeBrowser(e.attachmentId, CloseCode.ExecutorUnsupported);
    this.observeSettings(e.userId, e.settings, out);
    const trusted = e.trustWorkspaceTools === true;
    this.retireOtherTrust(e, trusted, out);
    const claim = this.table.claim(e);
    if (claim.kind === 'reattach') {
      this.counters.reattached += 1;
      return this.attach(claim.lease, e.attachmentId, claim.via, out);
    }
    // A new lease: capacity is decided here, before the task host is started or resumed.
    const admission = decideAdmission(this.table, this.maxLeases, e.ownerKind);
    if (admission.kind === 'refuse') {
      this.counters.refusedAtCapacity += 1;
      return out.closeBrowser(e.attachmentId, CloseCode.CapacityReached);
    }
    if (admission.kind === 'evict') this.endGracefully(admission.victim, 'eviction', undefined, out);
    const lease = createLease({
      id: this.newLeaseId(),
      sessionId: e.sessionId,
      language: e.language,
      userId: e.userId,
      createdAt: out.now,
      seq: ++this.seq,
      trustWorkspaceTools: trusted,
      ownerKind: e.ownerKind ?? 'person',
    });
    this.table.add(lease);
    this.counters.created += 1;
    out.log('create', 'new_lease', lease.language);
    out.push({
      type: 'openUpstream',
      leaseId: lease.id,
      sessionId: lease.sessionId,
      language: lease.language,
      autoInstall: this.settings.autoInstall(lease.userId, lease.language),
      trustWorkspaceTools: lease.trustWorkspaceTools,
    });
    this.attach(lease, e.attachmentId, 'new_lease', out);
  }

  /**
   * A trust change reaches servers started after it: a detached lease of this (session, language,
   * user) that was started under the other trust is released instead of reattached, so the
   * connection gets a fresh server under the task's trust now.
   */
  private retireOtherTrust(e: BrowserConnected, trusted: boolean, out: Outbox): void {
    for (const lease of this.table.all()) {
      if (lease.sessionId !== e.sessionId || lease.language !== e.language || lease.userId !== e.userId || lease.ownerKind !== (e.ownerKind ?? 'person'))
        continue;
      if (isDetached(lease) && lease.trustWorkspaceTools !== trusted) this.endGracefully(lease, 'trust_changed', undefined, out);
    }
  }

  private attach(lease: Lease, attachmentId: AttachmentId, via: AttachReason, out: Outbox): void {
    if (lease.detachedAt !== undefined) {
      out.cancel(timerIdOf({ kind: 'deadline', leaseId: lease.id, epoch: lease.deadline.currentEpoch }));
      lease.deadline.disarm();
      lease.detachedAt = undefined;
    }
    const attachment = newAttachment(lease, attachmentId, out.now);
    lease.attachment = attachment;
    this.attachments.set(attachmentId, lease.id);
    out.log(via === 'new_lease' ? 'attach' : 'reattach', via, lease.language);
    const phase = lease.phase;
    if (phase.kind === 'starting') {
      if (phase.installStatus) out.toBrowser(attachmentId, phase.installStatus);
      return;
    }
    // A releasing lease is never claimed, so one being attached to runs on its host.
    if (phase.kind === 'running') out.toBrowser(attachmentId, this.readyFrame(lease, phase.host, attachment));
  }

  private readyFrame(lease: Lease, host: WorkspaceIdentity, attachment: Attachment): ReadyFrame {
    const frame: ReadyFrame = {
      status: 'ready',
      lease: lease.id,
      resumed: attachment.resumed,
      language: lease.language,
      workspaceUri: host.workspaceUri,
      workspacePath: host.workspacePath,
      repoSubpaths: [...host.repoSubpaths],
    };
    if (lease.trustedTools?.network) frame.network = lease.trustedTools.network;
    if (attachment.resumed) {
      frame.initializeResult = lease.init.result;
      frame.registrations = lease.registrations.list();
      frame.progress = lease.progress.snapshot();
    }
    if (lease.output.size > 0) frame.output = lease.output.recent();
    return frame;
  }

  /** The attachment ended (socket closed, stuck, or misbehaving): the lease lives on, detached. */
  private detach(lease: Lease, reason: DetachReason, out: Outbox): void {
    const attachment = lease.attachment;
    if (!attachment) return;
    lease.attachment = undefined;
    this.attachments.delete(attachment.id);
    if (lease.init.onDetach(attachment.generation).sendInitialized) sendInitialized(this.contextFor(out), lease);
    for (const entry of lease.requests.drainGeneration(attachment.generation)) {
      out.cancel(entry.timerId);
      out.toServer(lease.id, notification('$/cancelRequest', { id: entry.serverId }));
    }
    answerForwardedLocally(this.contextFor(out), lease, attachment.generation);
    for (const uri of attachment.documents.closeAll()) {
      out.toServer(lease.id, notification('textDocument/didClose', { textDocument: { uri } }));
    }
    lease.detachedAt = out.now;
    out.log('detach', reason, lease.language);
    if (exceedsRetainedLimit(lease)) return this.endGracefully(lease, 'state_limit', undefined, out);
    const epoch = lease.deadline.arm();
    out.arm({ kind: 'deadline', leaseId: lease.id, epoch }, this.timing.detachedDeadlineMs);
  }

  private browserGone(attachmentId: AttachmentId, why: DetachReason, out: Outbox): void {
    if (this.probes.take(attachmentId)) {
      // It left while its hinted lease's holder was being asked: nothing was started for it.
      return out.cancel(timerIdOf({ kind: 'holderProbe', newcomer: attachmentId }));
    }
    const found = this.attachmentOf(attachmentId);
    if (!found) return; // an ended generation: it can no longer touch anything (S33)
    const { lease } = found;
    if (why === 'write_timeout') out.closeBrowser(attachmentId, CloseCode.TransportFailure);
    if (lease.phase.kind === 'releasing') {
      // The release goes on without anyone to acknowledge it to.
      lease.attachment = undefined;
      this.attachments.delete(attachmentId);
      delete lease.phase.release.waiter;
      return;
    }
    this.detach(lease, why, out);
  }

  private attachmentOf(attachmentId: AttachmentId): { lease: Lease; attachment: Attachment } | undefined {
    const leaseId = this.attachments.get(attachmentId);
    const lease = leaseId === undefined ? undefined : this.table.get(leaseId);
    if (!lease || lease.attachment?.id !== attachmentId) return undefined;
    return { lease, attachment: lease.attachment };
  }

  /**
   * A lease of a previous backend process comes back detached on its very server: its stream is
   * resumed, the documents that process's browser had open are closed (as on any detach), and the
   * server hears of settings saved meanwhile. Its hint routes to it again; its deadline starts now.
   */
  private adopt(e: Extract<BrokerEvent, { type: 'leaseAdopted' }>, out: Outbox): void {
    if (this.stopped || this.table.get(e.lease.id)) return;
    const lease = adoptedLease(e.lease, ++this.seq);
    this.table.add(lease);
    out.push({
      type: 'resumeUpstream',
      leaseId: lease.id,
      sessionId: lease.sessionId,
      language: lease.language,
      trustWorkspaceTools: lease.trustWorkspaceTools,
      stream: e.lease.stream,
    });
    out.log('adopt', 'backend_restarted', lease.language);
    for (const doc of e.lease.openDocuments) out.toServer(lease.id, notification('textDocument/didClose', { textDocument: { uri: doc.uri } }));
    this.settings.observe(lease.userId, e.settings);
    const config = leaseConfig({ settings: this.settings }, lease);
    const fingerprint = configFingerprint(config);
    if (fingerprint !== lease.configFingerprint) {
      lease.configFingerprint = fingerprint;
      out.toServer(lease.id, didChangeConfiguration(config));
    }
    setTraceIfChanged(this.contextFor(out), lease);
    lease.detachedAt = out.now;
    const epoch = lease.deadline.arm();
    out.arm({ kind: 'deadline', leaseId: lease.id, epoch }, this.timing.detachedDeadlineMs);
  }

  // -------------------------------------------------------------------------------------------
  // Browser -> broker -> server
  // -------------------------------------------------------------------------------------------

  private browserFrame(attachmentId: AttachmentId, frame: BrowserFrameEvent['frame'], out: Outbox): void {
    const found = this.attachmentOf(attachmentId);
    if (!found) return; // S33: a late frame of an ended generation is ignored
    const { lease, attachment } = found;
    if (lease.phase.kind === 'releasing') {
      if (frame.kind === 'jsonrpc') {
        const m = classify(frame.message);
        if (m.kind === 'request') {
          out.toBrowser(attachmentId, errorResponse(m.id, RpcErrorCode.RequestCancelled, 'the language server is being released'));
        }
      }
      return;
    }
    switch (frame.kind) {
      case 'invalid':
        out.closeBrowser(attachmentId, BadInputCloseCode.InvalidPayload);
        return this.detach(lease, 'invalid_frame', out);
      case 'status':
        return; // ours to send, never to receive
      case 'control':
        if (frame.frame.control === 'attachment-ready') return attachmentReady(this.contextFor(out), lease, attachment);
        if (frame.frame.control === 'release-stream') return; // the task-host hop's, never a browser's
        return this.endGracefully(lease, frame.frame.reason, frame.frame.reason, out);
      case 'jsonrpc':
        return routeBrowserMessage(this.contextFor(out), lease, attachment, frame.message, frame.raw);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Server -> broker -> browser
  // -------------------------------------------------------------------------------------------

  private upstreamFrame(leaseId: LeaseId, frame: ParsedFrame | RawRpcFrame, out: Outbox): void {
    const lease = this.table.get(leaseId);
    if (!lease) return;
    switch (frame.kind) {
      case 'raw':
        // Relayed undecoded when the broker only passes it on; otherwise decoded here, in full.
        if (relayServerRaw(this.contextFor(out), lease, frame)) return;
        return this.upstreamFrame(leaseId, parseFrame(frame.text, frame.scan), out);
      case 'invalid':
        return this.endAbruptly(lease, 'upstream_lost', CloseCode.TransportFailure, out, BadInputCloseCode.InvalidPayload);
      case 'control':
        return;
      case 'status':
        return this.hostStatus(lease, frame.frame, out);
      case 'jsonrpc': {
        const restart = restartOf(lease);
        const m = restart?.step === 'initializing' ? classify(frame.message) : undefined;
        if (restart?.step === 'initializing' && m?.kind === 'response' && m.id === restart.initServerId) {
          return this.finishRestart(lease, restart, m.ok, frame.message.result, out);
        }
        return routeServerMessage(this.contextFor(out), lease, frame.message);
      }
    }
  }

  /** The restarted server answered the broker's `initialize`: the lease runs again (restart.ts). */
  private finishRestart(lease: Lease, restart: InitializingRestart, ok: boolean, result: unknown, out: Outbox): void {
    if (!ok) {
      lease.phase = { kind: 'starting' };
      if (lease.attachment) out.toBrowser(lease.attachment.id, serverExitedFrame(lease));
      return this.endAbruptly(lease, 'server_exit', CloseCode.ServerExited, out, CloseCode.Normal);
    }
    lease.init.onServerResponse(restart.initServerId, true, result);
    sendInitialized(this.contextFor(out), lease);
    lease.phase = { kind: 'running', host: restart.host };
    const attachment = lease.attachment;
    if (!attachment) return;
    // A new generation on the same socket: the browser resumes from the new result, as on a reattach.
    const next = newAttachment(lease, attachment.id, out.now);
    lease.attachment = next;
    out.toBrowser(next.id, this.readyFrame(lease, restart.host, next));
  }

  private hostStatus(lease: Lease, frame: StatusFrame, out: Outbox): void {
    if (frame.status === 'server_stderr') return keepStderr(lease, frame.lines, out);
    if (frame.status === 'server_exited') {
      lease.stderrTail = boundedTail(frame.stderrTail);
      lease.exitCause = frame.cause === 'stdin_timeout' ? frame.cause : undefined;
      return;
    }
    if (frame.status === 'reaped') {
      // Only the answer to our release-stream counts; agentctl closes the stream right after it.
      const release = releaseOf(lease);
      if (release?.step !== 'reaping' || !release.awaitsReport) return;
      finishRelease(lease, frame.clean === true ? 'reaped' : 'reap_incomplete', out);
      out.closeUpstream(lease.id, CloseCode.Normal);
      return this.forget(lease, out);
    }
    const phase = lease.phase;
    if (phase.kind !== 'starting') return; // status frames only precede `ready`
    const attachment = lease.attachment;
    switch (frame.status) {
      case 'installing':
      case 'installed':
        phase.installStatus = frame;
        if (frame.status === 'installing') phase.installingSince ??= out.now;
        else this.installEnded(phase, true, out);
        if (attachment) out.toBrowser(attachment.id, frame);
        return;
      case 'install_failed':
        this.installEnded(phase, false, out);
        if (attachment) out.toBrowser(attachment.id, frame);
        return;
      case 'ready': {
        // packages/protocol's one ready-frame rule: an invalid identity ends the lease (1007 upstream).
        const host = readyFrameIdentity(frame);
        if (!host.ok) return this.endAbruptly(lease, 'upstream_lost', CloseCode.TransportFailure, out, BadInputCloseCode.InvalidPayload);
        const stream = (frame as { stream?: unknown }).stream;
        if (typeof stream === 'number' && Number.isInteger(stream)) lease.stream = stream;
        // The same for the pins: a wrong one could let an untrusted server run the workspace's tools.
        const pins = readyFramePins(frame);
        if (!pins.ok) return this.endAbruptly(lease, 'upstream_lost', CloseCode.TransportFailure, out, BadInputCloseCode.InvalidPayload);
        if (pins.value) lease.trustedTools = pins.value;
        if (phase.restart) return initializeRestarted(this.contextFor(out), lease, host.identity);
        out.push({ type: 'measure', measure: 'server_start', ms: out.now - (phase.startingSince ?? lease.createdAt), ok: true });
        lease.phase = { kind: 'running', host: host.identity };
        if (attachment) out.toBrowser(attachment.id, this.readyFrame(lease, host.identity, attachment));
        return;
      }
      default:
        return;
    }
  }

  /** An install reported its end: timed from its `installing`, and the server's start begins now. */
  private installEnded(phase: Extract<Lease['phase'], { kind: 'starting' }>, ok: boolean, out: Outbox): void {
    if (phase.installingSince === undefined) return;
    out.push({ type: 'measure', measure: 'install', ms: out.now - phase.installingSince, ok });
    phase.installingSince = undefined;
    phase.startingSince = out.now;
  }

  private upstreamClosed(leaseId: LeaseId, code: number, out: Outbox): void {
    const lease = this.table.get(leaseId);
    if (!lease) return;
    if (lease.phase.kind === 'releasing') {
      finishRelease(lease, outcomeOfClose(lease), out);
      return this.forget(lease, out);
    }
    if (code === CloseCode.ServerExited) {
      const attempt = admitRestart(lease, out.now, this.timing.restartLimit);
      if (attempt !== undefined) return beginRestart(this.contextFor(out), lease, attempt);
      if (lease.attachment) out.toBrowser(lease.attachment.id, serverExitedFrame(lease));
    }
    const { reason, browserCode } = classifyUpstreamClose(code);
    this.endAbruptly(lease, reason === 'server_exit' && lease.exitCause === 'stdin_timeout' ? 'server_stdin_timeout' : reason, browserCode, out);
  }

  // -------------------------------------------------------------------------------------------
  // Timers, settings, stops
  // -------------------------------------------------------------------------------------------

  private timerFired(timerId: string, out: Outbox): void {
    const purpose = this.timers.take(timerId);
    if (!purpose) return; // cancelled or already handled: stale
    if (purpose.kind === 'holderProbe') return this.holderProbed(purpose.newcomer, false, out);
    const lease = this.table.get(purpose.leaseId);
    if (!lease) return;
    switch (purpose.kind) {
      case 'deadline':
        // A deadline armed before a reattach can never close the lease: its epoch is gone.
        if (!isDetached(lease) || !lease.deadline.isCurrent(purpose.epoch)) return;
        return this.endGracefully(lease, 'expiry', undefined, out);
      case 'request': {
        const entry = lease.requests.take(purpose.serverId);
        if (!entry) return;
        out.toServer(lease.id, notification('$/cancelRequest', { id: entry.serverId }));
        const attachment = lease.attachment;
        if (attachment && attachment.generation === entry.generation) {
          out.toBrowser(attachment.id, errorResponse(entry.browserId, RpcErrorCode.RequestCancelled, 'the language server did not answer within 30 s'));
        }
        return;
      }
      case 'shutdown':
        return afterShutdown(lease, out, this.timing);
      case 'restart': {
        const phase = lease.phase;
        if (phase.kind !== 'starting' || phase.restart?.step !== 'backoff' || phase.restart.attempt !== purpose.attempt) return;
        if (lease.endReason !== undefined) return;
        phase.restart = { step: 'opening', attempt: purpose.attempt };
        // The restarted server runs under the trust the lease started with, like the first one.
        return out.push({
          type: 'openUpstream',
          leaseId: lease.id,
          sessionId: lease.sessionId,
          language: lease.language,
          autoInstall: this.settings.autoInstall(lease.userId, lease.language),
          trustWorkspaceTools: lease.trustWorkspaceTools,
        });
      }
      case 'reap':
        if (lease.phase.kind !== 'releasing') return;
        finishRelease(lease, 'reap_timeout', out);
        return this.forget(lease, out);
    }
  }

  /** Records a user's settings; a real change reaches every affected initialized lease (C12, S23). */
  private observeSettings(userId: UserId, settings: UserSettings, out: Outbox): void {
    if (!this.settings.observe(userId, settings)) return;
    for (const lease of this.table.ofUser(userId)) {
      if (lease.phase.kind !== 'running' || !lease.init.initializedSent) continue;
      const config = leaseConfig({ settings: this.settings }, lease);
      const fingerprint = configFingerprint(config);
      if (fingerprint === lease.configFingerprint) continue;
      lease.configFingerprint = fingerprint;
      out.toServer(lease.id, didChangeConfiguration(config));
    }
    for (const lease of this.table.ofUser(userId)) setTraceIfChanged(this.contextFor(out), lease);
  }

  private sessionStopped(sessionId: SessionId, out: Outbox): void {
    for (const lease of this.table.ofSession(sessionId)) {
      this.endAbruptly(lease, 'session_stopped', CloseCode.Unavailable, out, CloseCode.GoingAway);
    }
  }

  private shutdown(out: Outbox): void {
    this.stopped = true;
    for (const lease of this.table.all()) this.endAbruptly(lease, 'shutdown', CloseCode.GoingAway, out, CloseCode.GoingAway);
  }

  // -------------------------------------------------------------------------------------------
  // Terminal paths: every one goes through releaseSlotOnce
  // -------------------------------------------------------------------------------------------

  /** Release, expiry, eviction, state limit: the slot goes now, the server is shut down politely. */
  private endGracefully(lease: Lease, reason: EndReason, ack: ReleaseReason | undefined, out: Outbox): void {
    if (!this.accountEnd(lease, reason, out)) return;
    if (restartOf(lease)?.step === 'backoff') {
      // Between a crash and its restart no process exists (agentctl reaped it before its 4006).
      const waiter = lease.attachment?.id;
      lease.phase = {
        kind: 'releasing',
        release: { reason, step: 'reaping', awaitsReport: false, ...(waiter !== undefined ? { waiter } : {}), ...(ack ? { ack } : {}) },
      };
      finishRelease(lease, 'reaped', out);
      return this.forget(lease, out);
    }
    if (lease.attachment) answerForwardedLocally(this.contextFor(out), lease, lease.attachment.generation);
    startRelease(lease, reason, ack, out, this.timing);
  }

  /** Server exit, lost upstream, session stop, shutdown: the lease is gone at once. */
  private endAbruptly(lease: Lease, reason: EndReason, browserCode: BrowserCloseCode, out: Outbox, upstreamCode?: UpstreamCloseCode): void {
    this.accountEnd(lease, reason, out);
    if (upstreamCode !== undefined && releaseOf(lease)?.step !== 'reaping') out.closeUpstream(lease.id, upstreamCode);
    if (lease.attachment) out.closeBrowser(lease.attachment.id, browserCode);
    this.forget(lease, out);
  }

  /** Slot, counter and log of a lease's end, exactly once. */
  private accountEnd(lease: Lease, reason: EndReason, out: Outbox): boolean {
    if (!releaseSlotOnce(lease, reason, out)) return false;
    this.counters.released[reason] += 1;
    const [event, logReason] = endLog(reason);
    out.log(event, logReason, lease.language);
    return true;
  }

  private forget(lease: Lease, out: Outbox): void {
    out.cancelLeaseTimers(lease.id);
    if (lease.attachment) this.attachments.delete(lease.attachment.id);
    lease.attachment = undefined;
    this.table.remove(lease.id);
  }
}

function endLog(reason: EndReason): [LogEvent, LogReason] {
  switch (reason) {
    case 'expiry':
      return ['expiry', 'detached_deadline'];
    case 'eviction':
      return ['eviction', 'capacity'];
    case 'stop':
    case 'editor_idle':
    case 'state_limit':
    case 'session_stopped':
    case 'shutdown':
    case 'trust_changed':
      return ['release', reason];
    default:
      return ['exit', reason];
  }
}

/** The ready frame's `trustedTools`, checked by the protocol's schema (absent: undefined). */
function readyFramePins(frame: object): WireShapeResult<TrustedToolPins | undefined> {
  const pins = (frame as { trustedTools?: unknown }).trustedTools;
  return pins === undefined ? { ok: true, value: undefined } : parseTrustedToolPins(pins, 'ready frame');
}

function viewOf(lease: Lease): LeaseView {
  const view: LeaseView = {
    id: lease.id,
    sessionId: lease.sessionId,
    userId: lease.userId,
    ownerKind: lease.ownerKind,
    language: lease.language,
    phase: lease.phase.kind,
    generation: lease.generation,
    initialize: lease.init.state.kind,
    pendingRequests: lease.requests.size,
    trackedRequestBytes: lease.requests.bytes,
    registrations: lease.registrations.list(),
    retainedBytes: retainedBytes(lease),
  };
  if (lease.attachment) view.attachmentId = lease.attachment.id;
  if (lease.detachedAt !== undefined) view.detachedAt = lease.detachedAt;
  if (lease.endReason !== undefined) view.endReason = lease.endReason;
  return view;
}
