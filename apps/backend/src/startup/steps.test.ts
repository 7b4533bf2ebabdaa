/**
 * The backend's first setup steps, each alone on a fresh home: what they leave on disk is private
 * to its owner, and a step that cannot do its part fails the start with a reason.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAccess } from './access.js';
import { openBackendLog } from './backendLog.js';
import { openStore } from './store.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'kandev-startup-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const modeOf = (path: string): number => statSync(path).mode & 0o777;

describe('backend setup steps', () => {
  it('openBackendLog writes logs/backend.log, readable by the owner only', async () => {
    const { log, logDir } = openBackendLog({ home, logMaxBytes: 1 << 20, logToStderr: false });
    log.info('backend_stopping');
    await log.close();
    expect(logDir).toBe(join(home, 'logs'));
    expect(modeOf(logDir)).toBe(0o700);
    expect(modeOf(join(logDir, 'backend.log'))).toBe(0o600);
  });

  it('openStore opens a migrated kandev.db (0600) whose repositories work', async () => {
    const { log } = openBackendLog({ home, logMaxBytes: 1 << 20, logToStderr: false });
    const store = openStore({ home }, log);
    expect(modeOf(join(home, 'kandev.db'))).toBe(0o600);
    expect(store.tasks.list()).toEqual([]);
    expect(store.leaseStore.forSession('none')).toEqual([]);
    store.db.close();
    await log.close();
  });

  it('openStore fails the start with a reason when the database cannot be opened', async () => {
    const { log } = openBackendLog({ home, logMaxBytes: 1 << 20, logToStderr: false });
    writeFileSync(join(home, 'kandev.db'), 'not a database');
    expect(() => openStore({ home }, log)).toThrow(/\S/);
    await log.close();
  });

  it('loadAccess keeps the token it creates, so a second start uses the same one', async () => {
    const { log } = openBackendLog({ home, logMaxBytes: 1 << 20, logToStderr: false });
    const first = loadAccess({ home, accessToken: undefined }, log);
    const second = loadAccess({ home, accessToken: undefined }, log);
    expect(first.access.created).toBe(true);
    expect(second.access).toMatchObject({ created: false, value: first.access.value });
    expect(modeOf(first.access.file)).toBe(0o600);
    await log.close();
  });
});
