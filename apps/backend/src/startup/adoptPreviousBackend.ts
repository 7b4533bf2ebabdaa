/**
 * Startup step, before listening: the task hosts a previous backend of this home left running are
 * re-adopted and their leases rebuilt detached, so a browser's first reconnect finds its lease warm
 * (docs/restarts.md); what that backend left and nobody can adopt is ended.
 */
import type { Logger } from '../base/log.js';
import type { LocalDockerExecutor } from '../executors/localDocker.js';
import { sweepOrphanedTrees } from '../executors/localPc.js';
import { readoptLeases, type LeaseAdopter } from '../restart/readoption.js';
import type { SessionService } from '../sessions/sessionService.js';
import type { LeaseRepository } from '../store/leaseRepository.js';

/** What adoption reads: a structural part of BackendConfig (config.ts), so startup/ never imports the composition root. */
export interface AdoptionSettings {
  agentctlStopGraceMs: number;
  restartGraceMs: number;
}

export interface AdoptionDeps {
  config: AdoptionSettings;
  sessions: SessionService;
  leaseStore: LeaseRepository;
  broker: LeaseAdopter;
  docker: LocalDockerExecutor;
  owner: string;
  log: Logger;
}

export async function adoptPreviousBackend(deps: AdoptionDeps): Promise<void> {
  const { config, log } = deps;
  const adopted = await deps.sessions.recover(config.agentctlStopGraceMs, config.restartGraceMs > 0);
  const readopted = await readoptLeases(adopted, deps.leaseStore, deps.broker, log);
  if (adopted.length > 0) log.info('lease_adopted', { hosts: adopted.length, ...readopted });
  // A previous backend with this KANDEV_HOME that was SIGKILLed together with its agentctl left
  // their language-server trees running: nothing else would ever end them. Re-adopted ones stay.
  const adoptedMarkers = new Set(adopted.flatMap(({ host }) => (host.record?.marker ? [host.record.marker] : [])));
  await sweepOrphanedTrees(deps.owner, log, adoptedMarkers);
  void deps.docker.removeLeftovers(new Set(adopted.flatMap(({ host }) => (host.record?.containerId ? [host.record.containerId] : []))));
}
