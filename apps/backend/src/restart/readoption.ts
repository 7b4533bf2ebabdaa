/**
 * Start-up after a restart (docs/restarts.md): the task hosts the previous backend process of this
 * home left running are re-adopted (SessionService.recover checks each one's identity and token),
 * then each one's leases are rebuilt detached from what that process persisted and from agentctl's
 * account of its live streams. Whatever cannot be resumed ends cleanly: a persisted lease without a
 * live stream is forgotten (its hint then gets a new lease), a live stream without a lease is released
 * (agentctl reaps its server before it closes it), and only then are the trees nobody owns any more swept.
 */
import { deadline, systemClock } from '@kandev/kit';
import { CloseCode, type LiveStreamAccount, type PersistedLease, type ReleaseStreamControl } from '@kandev/protocol';
import type { Logger } from '../base/log.js';
import type { TaskHost } from '../executors/executor.js';
import type { AdoptedLeaseState } from '../lsp/broker/index.js';
import { UpstreamStream } from '../lsp/upstreamStream.js';
import type { RecoveredHost } from '../sessions/sessionService.js';
import type { LeaseRepository } from '../store/leaseRepository.js';
import { AgentctlClient } from '../taskhost/agentctlClient.js';

export interface LeaseAdopter {
  adoptLease(lease: AdoptedLeaseState): void;
}

export interface ReadoptionReport {
  leases: number;
  forgotten: number;
  streamsClosed: number;
}

export async function readoptLeases(adopted: readonly RecoveredHost[], leases: LeaseRepository, broker: LeaseAdopter, log: Logger): Promise<ReadoptionReport> {
  const report: ReadoptionReport = { leases: 0, forgotten: 0, streamsClosed: 0 };
  // Leases of sessions that did not come back cannot be resumed by anyone.
  report.forgotten += leases.deleteOfEndedSessions();
  for (const { sessionId, host } of adopted) {
    const persisted = leases.forSession(sessionId, (id, error) => {
      // Not resumable: the row goes, and its stream (claimed by no lease) is closed below.
      leases.delete(id);
      report.forgotten++;
      log.warn('lease_not_adopted', { reason: 'stored_state_invalid', code: error.code, detail: error.message });
    });
    const accounts = await new AgentctlClient(host.endpoint).liveStreams();
    const live = new Map((accounts.ok ? accounts.value : []).map((a) => [a.stream, a]));
    for (const lease of persisted) {
      const account = live.get(lease.stream);
      if (!account || !matches(lease, account)) {
        leases.delete(lease.id);
        report.forgotten++;
        log.info('lease_not_adopted', { language: lease.language, reason: account ? 'stream_mismatch' : 'server_gone' });
        continue;
      }
      live.delete(lease.stream);
      broker.adoptLease(adoptedState(lease, account));
      report.leases++;
    }
    // A stream no persisted lease claims (its lease ended, or was never resumable): closed, reaped.
    for (const account of live.values()) if (await closeStream(host, account)) report.streamsClosed++;
  }
  return report;
}

function matches(lease: PersistedLease, account: LiveStreamAccount): boolean {
  return account.language === lease.language && account.trustWorkspaceTools === lease.trustWorkspaceTools;
}

function adoptedState(lease: PersistedLease, account: LiveStreamAccount): AdoptedLeaseState {
  return { ...lease, openDocuments: account.documents, maxRequestId: account.maxRequestId };
}

/** At most this long for agentctl to reap an unclaimed stream's server before it is closed from here. */
const UNCLAIMED_RELEASE_MS = 15_000;

const EXIT_NOTIFICATION = JSON.stringify({ jsonrpc: '2.0', method: 'exit' });
const RELEASE_STREAM: ReleaseStreamControl = { control: 'release-stream' };

/**
 * Resumes the stream only to end it with the release handshake (`exit`, then `release-stream`):
 * agentctl closes it once the server's tree is reaped, so nothing of it runs by the time the next
 * backend listens. A plain close would leave agentctl reaping in the background.
 */
async function closeStream(host: TaskHost, account: LiveStreamAccount): Promise<boolean> {
  const opened = await UpstreamStream.open(host.endpoint, { language: account.language, autoInstall: false, resumeStream: account.stream });
  if (!opened.ok) return false;
  const stream = opened.value;
  const limit = deadline(systemClock, UNCLAIMED_RELEASE_MS);
  const closed = new Promise<void>((resolve) => stream.onClose(() => resolve()));
  stream.send(EXIT_NOTIFICATION);
  stream.send(JSON.stringify(RELEASE_STREAM));
  await Promise.race([closed, limit.reached]);
  limit.dispose();
  stream.close(CloseCode.Normal);
  await closed;
  return true;
}
