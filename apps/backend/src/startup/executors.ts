/** Startup step: the executors that run task hosts (this PC, local Docker) and their shared timing. */
import type { KeepaliveTiming } from '@kandev/node-transport';
import type { Logger } from '../base/log.js';
import { LocalDockerExecutor, type LocalDockerSettings } from '../executors/localDocker.js';
import { LocalPcExecutor } from '../executors/localPc.js';
import { ExecutorRegistry } from '../executors/registry.js';
import { ownerTag } from '../executors/taskHostMarker.js';

/** What the executors read: a structural part of BackendConfig (config.ts), so startup/ never imports the composition root. */
export interface ExecutorSettings extends LocalDockerSettings {
  agentctlCommand: string[];
  lspPingIntervalMs: number;
  lspPingMisses: number;
  logMaxBytes: number;
  restartGraceMs: number;
}

export interface Executors {
  registry: ExecutorRegistry;
  /** Kept apart: its leftovers (containers of a previous backend) are removed after re-adoption. */
  docker: LocalDockerExecutor;
  /** This home's mark on the processes it starts (a previous backend's orphans carry it too). */
  owner: string;
  /** How every long-lived peer (agentctl, browsers, events pages) is pinged. */
  keepalive: KeepaliveTiming;
}

export function startExecutors(config: ExecutorSettings, logDir: string, log: Logger): Executors {
  const owner = ownerTag(config.home);
  const keepalive = { intervalMs: config.lspPingIntervalMs, maxMisses: config.lspPingMisses };
  const docker = LocalDockerExecutor.fromConfig(config, { logDir, logMaxBytes: config.logMaxBytes, log });
  const localPc = new LocalPcExecutor({
    agentctlCommand: config.agentctlCommand,
    startTimeoutMs: config.agentctlStartTimeoutMs,
    stopGraceMs: config.agentctlStopGraceMs,
    logDir,
    logMaxBytes: config.logMaxBytes,
    cwd: process.cwd(),
    backendEnv: process.env,
    owner,
    restartGraceMs: config.restartGraceMs,
    keepalive,
    log,
  });
  return { registry: new ExecutorRegistry([localPc, docker]), docker, owner, keepalive };
}
