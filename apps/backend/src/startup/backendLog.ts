/** Startup step: the backend's own log, in KANDEV_HOME/logs, readable by its owner only. */
import { join } from 'node:path';
import { createLogger, type OwnedLogger } from '../base/log.js';
import { ensurePrivateDir, ensurePrivateFile } from '../security/privateFiles.js';

/** What the log reads: a structural part of BackendConfig (config.ts), so startup/ never imports the composition root. */
export interface LogSettings {
  home: string;
  logMaxBytes: number;
  logToStderr: boolean;
}

export interface BackendLog {
  /** Owned: flushed and closed when the backend stops. */
  log: OwnedLogger;
  /** Where the backend, agentctl and container logs go (and are pruned by age). */
  logDir: string;
}

export function openBackendLog(config: LogSettings): BackendLog {
  const logDir = join(config.home, 'logs');
  ensurePrivateDir(logDir);
  const logFile = join(logDir, 'backend.log');
  ensurePrivateFile(logFile);
  const log = createLogger({ targets: [{ file: logFile, maxBytes: config.logMaxBytes }, ...(config.logToStderr ? [{ stderr: true as const }] : [])] });
  return { log, logDir };
}
