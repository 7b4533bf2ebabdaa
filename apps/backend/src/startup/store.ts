/** Startup step: the SQLite store (migrated, 0600) and the repositories over it. */
import { join } from 'node:path';
import type { Logger } from '../base/log.js';
import { ensurePrivateFile, tightenIfPresent } from '../security/privateFiles.js';
import { SettingsService } from '../settings/settingsService.js';
import { AgentTokenRepository } from '../store/agentTokenRepository.js';
import { openDatabase, type Db } from '../store/database.js';
import { LeaseRepository } from '../store/leaseRepository.js';
import { SessionRepository } from '../store/sessionRepository.js';
import { SettingsRepository } from '../store/settingsRepository.js';
import { TaskRepository } from '../store/taskRepository.js';

/** What the store reads: a structural part of BackendConfig (config.ts), so startup/ never imports the composition root. */
export interface StoreSettings {
  home: string;
}

export interface Store {
  db: Db;
  tasks: TaskRepository;
  sessionRecords: SessionRepository;
  settings: SettingsService;
  agentTokens: AgentTokenRepository;
  /** Resumable lease state, for the backend that follows this one after a restart. */
  leaseStore: LeaseRepository;
}

/** Throws (the start fails) when the database cannot be opened or migrated. */
export function openStore(config: StoreSettings, log: Logger): Store {
  const dbPath = join(config.home, 'kandev.db');
  // SQLite gives its -wal and -shm files the database file's mode: create that one 0600 first.
  ensurePrivateFile(dbPath);
  const opened = openDatabase(dbPath);
  if (!opened.ok) throw new Error(opened.error);
  for (const suffix of ['-wal', '-shm']) tightenIfPresent(`${dbPath}${suffix}`, 0o600);
  const { db, report } = opened.value;
  if (report.applied.length > 0) log.info('store_migrated', { applied: report.applied.join(','), version: report.version });
  return {
    db,
    tasks: new TaskRepository(db),
    sessionRecords: new SessionRepository(db),
    settings: new SettingsService(new SettingsRepository(db), log),
    agentTokens: new AgentTokenRepository(db),
    leaseStore: new LeaseRepository(db),
  };
}
