import type { LanguageId, ProgressSnapshot } from '@kandev/protocol';
import { summarizeProgress, type ProgressSummary } from '../../lib/lsp/progress.js';
import { availableActions, longInitializeNotice, showsElapsed, type LspActions, type LspStatus, type StatusMessage } from '../../lib/lsp/status.js';

/**
 * Everything a status surface (toolbar control, popover, drawer, status-bar item) shows for one
 * (session, language) at one instant: a pure function of the connection's status, its progress
 * and the clock, so every surface says the same thing and unit tests need no DOM.
 */
export interface StatusView {
  state: LspStatus['state'];
  /** What the connection is doing, as a catalog key or server/installer text. */
  readiness: StatusMessage;
  /** A close-code or failure message shown beside readiness (unavailable, error). */
  problem?: StatusMessage;
  guidance?: StatusMessage;
  /** The installer's latest line, shown as written. */
  installerDetail?: string;
  /** Elapsed ms of the current step, when time is running for something the person waits on. */
  elapsedMs?: number;
  notice?: StatusMessage;
  /** Ready, untrusted workspace: whether the server is off the network or the task host could not cut it off. */
  network?: { key: string; network: 'off' | 'unavailable' };
  /** The end of a crashed server's stderr, as it wrote it (restarting, or the final 4006). */
  serverOutput?: string;
  /** Server-reported work; shown only while a server process is attached. */
  work?: ProgressSummary;
  /** Elapsed ms of the oldest active work item. */
  workElapsedMs?: number;
  actions: LspActions;
  /** Whether anything on screen depends on the clock (re-render every second). */
  ticking: boolean;
}

export function statusView(status: LspStatus, progress: ProgressSnapshot, language: LanguageId, now: number): StatusView {
  const view: StatusView = { state: status.state, readiness: readinessOf(status), actions: availableActions(status), ticking: false };
  if ((status.state === 'unavailable' || status.state === 'error') && status.message) view.problem = status.message;
  if (status.state === 'installing' && status.message && 'text' in status.message) view.problem = status.message;
  if (status.guidance) view.guidance = { key: `guidance.${status.guidance}`, params: { language } };
  if (status.state === 'installing' && status.detail) view.installerDetail = status.detail;
  if (showsElapsed(status) && status.since !== undefined) {
    view.elapsedMs = Math.max(0, now - status.since);
    view.ticking = true;
  }
  view.notice = longInitializeNotice(status, language, now);
  if (status.state === 'ready' && status.network) view.network = { key: `network.${status.network}`, network: status.network };
  if (status.stderrTail && (status.state === 'starting' || status.state === 'error')) view.serverOutput = status.stderrTail;
  if (status.state === 'starting' || status.state === 'ready') {
    view.work = summarizeProgress(progress);
    if (view.work.kind === 'active') {
      view.workElapsedMs = Math.max(0, now - view.work.item.startedAt);
      view.ticking = true;
    }
  }
  return view;
}

function readinessOf(status: LspStatus): StatusMessage {
  switch (status.state) {
    case 'starting':
      if (status.phase === 'restarting' && status.message) return status.message;
      if (status.phase) return { key: `readiness.${status.phase}` };
      return status.message ?? { key: 'readiness.awaitingInitialize' };
    case 'reconnecting':
      return status.message ?? { key: 'readiness.reconnecting' };
    case 'unavailable':
    case 'error':
      return { key: `state.${status.state}` };
    default:
      return { key: `readiness.${status.state}` };
  }
}
