/**
 * Carries out the broker's effects, one at a time, in the order it returned them. Nothing here
 * decides anything: the broker did. I/O that completes later comes back as events (see
 * BrokerRuntime), never as a return value.
 */
import { isSendableCloseCode, normalizeCloseCode, type ReleaseStreamControl, type WatchedFilesControl } from '@kandev/protocol';
import type { Logger, LogEvent } from '../base/log.js';
import type { Effect, LogEvent as LeaseLogEvent, MeasureEffect } from './broker/index.js';
import type { LeaseTimers } from './leaseTimers.js';
import type { BrowserEndpoint } from './relay.js';
import type { TaskHostPins } from '../sessions/taskHostPins.js';
import type { UpstreamLinks } from './upstreamLinks.js';

export interface EffectTargets {
  browsers: { get(attachmentId: string): BrowserEndpoint | undefined };
  upstreams: UpstreamLinks;
  timers: LeaseTimers;
  pins: TaskHostPins;
  log: Logger;
  /** Reports a holder probe's outcome back to the broker (as holderAnswered / holderSilent). */
  holderProbed(newcomer: string, alive: boolean): void;
  /** A server start or install the broker timed (for /metrics). */
  measured?: (measure: MeasureEffect) => void;
}

const RELEASE_STREAM: ReleaseStreamControl = { control: 'release-stream' };

const LOG_EVENT: Record<LeaseLogEvent, LogEvent> = {
  create: 'lease_create',
  attach: 'lease_attach',
  detach: 'lease_detach',
  reattach: 'lease_reattach',
  release: 'lease_release',
  expiry: 'lease_expiry',
  eviction: 'lease_eviction',
  restart: 'lease_restart',
  exit: 'lease_exit',
  adopt: 'lease_adopted',
};

/** A code that may go in a close frame: reserved and unknown codes become 4009. */
export function sendableCloseCode(code: number): number {
  return isSendableCloseCode(code) ? code : normalizeCloseCode(code);
}

export function performEffect(effect: Effect, t: EffectTargets): void {
  switch (effect.type) {
    case 'sendToBrowser': {
      const browser = t.browsers.get(effect.attachmentId);
      // The write deadline is the socket's: a browser that cannot drain within 5 s is reported
      // back as `browserWriteTimedOut`; nothing here waits for it.
      if (browser && !browser.isClosed) browser.sendText(JSON.stringify(effect.frame));
      return;
    }
    case 'relayToBrowser': {
      const browser = t.browsers.get(effect.attachmentId);
      if (!browser || browser.isClosed) return;
      if (effect.wire && browser.sendPieces) browser.sendPieces(effect.wire);
      else browser.sendText(effect.text);
      return;
    }
    case 'relayToUpstream':
      t.upstreams.send(effect.leaseId, effect.wire ?? effect.text);
      return;
    case 'closeBrowser':
      // No reason text, ever: the browser shows localized copy per code.
      t.browsers.get(effect.attachmentId)?.close(sendableCloseCode(effect.code));
      return;
    case 'probeBrowser': {
      const browser = t.browsers.get(effect.attachmentId);
      if (!browser) return t.holderProbed(effect.newcomer, false);
      void browser.probe(effect.timeoutMs).then((alive) => t.holderProbed(effect.newcomer, alive));
      return;
    }
    case 'terminateBrowser':
      t.browsers.get(effect.attachmentId)?.terminate();
      return;
    case 'openUpstream':
      t.pins.pin(effect.leaseId, effect.sessionId);
      t.upstreams.open(effect.leaseId, {
        sessionId: effect.sessionId,
        language: effect.language,
        autoInstall: effect.autoInstall,
        trustWorkspaceTools: effect.trustWorkspaceTools,
      });
      return;
    case 'resumeUpstream':
      t.pins.pin(effect.leaseId, effect.sessionId);
      t.upstreams.open(effect.leaseId, {
        sessionId: effect.sessionId,
        language: effect.language,
        autoInstall: false,
        trustWorkspaceTools: effect.trustWorkspaceTools,
        resumeStream: effect.stream,
      });
      return;
    case 'sendToUpstream':
      t.upstreams.send(effect.leaseId, JSON.stringify(effect.message));
      return;
    case 'closeUpstream':
      t.upstreams.close(effect.leaseId, effect.code);
      return;
    case 'releaseUpstream':
      t.upstreams.send(effect.leaseId, JSON.stringify(RELEASE_STREAM));
      return;
    case 'watchFiles': {
      const control: WatchedFilesControl = { control: 'watched-files', watchers: effect.watchers };
      t.upstreams.send(effect.leaseId, JSON.stringify(control));
      return;
    }
    case 'armTimer':
      t.timers.arm(effect.timerId, effect.atMs);
      return;
    case 'cancelTimer':
      t.timers.cancel(effect.timerId);
      return;
    case 'releaseSlot':
      t.pins.unpin(effect.leaseId);
      return;
    case 'log':
      t.log.info(LOG_EVENT[effect.event], { reason: effect.reason, language: effect.language });
      return;
    case 'measure':
      t.measured?.(effect);
      return;
  }
}
