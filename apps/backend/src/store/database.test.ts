import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '@kandev/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database.js';
import { MIGRATIONS } from './migrations.js';
import { SessionRepository } from './sessionRepository.js';
import { SettingsRepository } from './settingsRepository.js';
import { TaskRepository } from './taskRepository.js';
import { LeaseRepository } from './leaseRepository.js';
import { AgentTokenRepository } from './agentTokenRepository.js';

const dirs: string[] = [];
const dbs: Db[] = [];

function tempDbPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kandev-store-'));
  dirs.push(dir);
  return join(dir, 'kandev.db');
}

function open(path: string, migrations = MIGRATIONS) {
  const opened = openDatabase(path, migrations);
  if (opened.ok) dbs.push(opened.value.db);
  return opened;
}

afterEach(() => {
  for (const db of dbs.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('store migrations', () => {
  it('applies every migration once on a fresh database and records it', () => {
    const path = tempDbPath();
    const first = open(path);
    expect(first.ok && first.value.report.applied).toEqual(MIGRATIONS.map((m) => m.version));
    const rows = first.ok ? first.value.db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() : [];
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
    if (first.ok) first.value.db.close();

    const again = open(path);
    expect(again.ok && again.value.report).toEqual({ applied: [], version: MIGRATIONS.length });
  });

  it('applies only the new migration to an existing database, keeping its data', () => {
    const path = tempDbPath();
    const first = open(path);
    if (!first.ok) throw new Error(first.error);
    new TaskRepository(first.value.db).create({ title: 'kept', executor: 'local_pc', repositories: [{ path: '/tmp' }], env: {} });
    first.value.db.close();

    const next = [...MIGRATIONS, { version: 99, name: 'add_column', sql: 'ALTER TABLE tasks ADD COLUMN note TEXT' }];
    const upgraded = open(path, next);
    expect(upgraded.ok && upgraded.value.report.applied).toEqual([99]);
    expect(upgraded.ok && new TaskRepository(upgraded.value.db).list().map((t) => t.title)).toEqual(['kept']);
  });

  it('refuses a database written by a newer Kandev instead of running on it', () => {
    const path = tempDbPath();
    const newer = open(path, [...MIGRATIONS, { version: 50, name: 'future', sql: 'SELECT 1' }]);
    if (newer.ok) newer.value.db.close();
    const older = open(path);
    expect(older.ok).toBe(false);
    expect(!older.ok && older.error).toMatch(/newer than this backend knows/);
  });

  it('rolls a failing migration back and reports it', () => {
    const path = tempDbPath();
    const broken = open(path, [...MIGRATIONS, { version: 90, name: 'broken', sql: 'CREATE TABLE half (x INTEGER); SELECT * FROM missing_table' }]);
    expect(!broken.ok && broken.error).toMatch(/migration 90 \(broken\) failed/);
    const reopened = open(path);
    if (!reopened.ok) throw new Error(reopened.error);
    const tables = reopened.value.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'half'").all();
    expect(tables).toEqual([]);
  });
});

describe('repositories', () => {
  it('stores tasks and sessions, and stops sessions a previous process left running', () => {
    const opened = open(tempDbPath());
    if (!opened.ok) throw new Error(opened.error);
    const tasks = new TaskRepository(opened.value.db);
    const sessions = new SessionRepository(opened.value.db);
    const task = tasks.create({ title: 'A', executor: 'local_pc', repositories: [{ path: '/w' }], env: { HOME: '/h' } });
    expect(tasks.get(task.id)).toEqual(task);
    const running = sessions.create(task.id);
    sessions.markRunning(running.id, '/w', { pid: 4242, identity: 'boot:123' });
    const starting = sessions.create(task.id);
    const failed = sessions.create(task.id);
    sessions.markFailed(failed.id, 'boom');
    expect(sessions.get(running.id)).toMatchObject({ status: 'running', workspacePath: '/w' });

    // What a restarted backend finds: the sessions left starting or running, with what it recorded.
    expect(sessions.recorded()).toEqual([
      { sessionId: running.id, taskId: task.id },
      { sessionId: starting.id, taskId: task.id },
    ]);
    for (const left of sessions.recorded()) sessions.markLeftover(left.sessionId);
    expect(sessions.recorded()).toEqual([]);
    expect(sessions.get(starting.id)).toMatchObject({ status: 'stopped' });
    expect(sessions.get(running.id)).toMatchObject({ status: 'stopped', error: 'backend restarted' });
    expect(sessions.get(running.id)?.workspacePath).toBeUndefined();
    expect(sessions.get(failed.id)).toMatchObject({ status: 'failed', error: 'boom' });
    expect(sessions.listForTask(task.id).map((s) => s.id)).toEqual([running.id, starting.id, failed.id]);
  });

  it('reads settings over the defaults, dropping fields a later release removed', () => {
    const opened = open(tempDbPath());
    if (!opened.ok) throw new Error(opened.error);
    const repo = new SettingsRepository(opened.value.db);
    expect(repo.read()).toEqual({ settings: DEFAULT_SETTINGS });
    opened.value.db.prepare("INSERT INTO settings (id, value, updated_at) VALUES (1, ?, 'now')").run(JSON.stringify({ locale: 'pt-pt', retired_field: 1 }));
    expect(repo.read()).toEqual({ settings: { ...DEFAULT_SETTINGS, locale: 'pt-pt' } });
    opened.value.db.prepare('UPDATE settings SET value = ? WHERE id = 1').run(JSON.stringify({ locale: 'klingon' }));
    expect(repo.read()).toMatchObject({ settings: DEFAULT_SETTINGS, problem: { kind: 'invalid' } });
  });
});

describe('what a restarted backend re-adopts from', () => {
  it('keeps a running task host record (token included) and each resumable lease until they end', () => {
    const opened = open(tempDbPath());
    if (!opened.ok) throw new Error(opened.error);
    const tasks = new TaskRepository(opened.value.db);
    const sessions = new SessionRepository(opened.value.db);
    const leases = new LeaseRepository(opened.value.db);
    const task = tasks.create({ title: 'A', executor: 'local_pc', repositories: [{ path: '/w' }], env: {} });
    const session = sessions.create(task.id);
    const record = { kind: 'local_pc' as const, port: 4100, token: 'f'.repeat(64), pid: 77, identity: 'boot:9', marker: 'owner.uuid' };
    sessions.markRunning(session.id, '/w', record);
    expect(sessions.recorded()).toEqual([{ sessionId: session.id, taskId: task.id, record }]);

    const lease = {
      id: 'L1',
      sessionId: session.id,
      language: 'typescript' as const,
      userId: 'local',
      trustWorkspaceTools: false,
      stream: 3,
      workspace: { workspacePath: '/w', workspaceUri: 'file:///w', repoSubpaths: [] },
      initializeParams: { capabilities: {} },
      initializeResult: { capabilities: { hoverProvider: true } },
      registrations: [],
      configFingerprint: 'abc',
      createdAt: 1,
    };
    leases.save(lease);
    leases.save({ ...lease, registrations: [{ id: 'r', method: 'workspace/didChangeWatchedFiles' }] });
    expect(leases.forSession(session.id)).toEqual([{ ...lease, registrations: [{ id: 'r', method: 'workspace/didChangeWatchedFiles' }] }]);
    expect(leases.deleteOfEndedSessions()).toBe(0);

    sessions.markStopped(session.id);
    expect(leases.deleteOfEndedSessions()).toBe(1);
    expect(leases.forSession(session.id)).toEqual([]);
    expect(sessions.recorded()).toEqual([]);
    // Deleting the task takes its leases along (a foreign key would refuse otherwise).
    leases.save(lease);
    expect(tasks.delete(task.id)).toBe(true);
    expect(opened.value.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('a lease persisted with one member per pinned tool keeps its pins, keyed by tool id (migration 6)', () => {
    const path = tempDbPath();
    const before = open(
      path,
      MIGRATIONS.filter((m) => m.version < 6),
    );
    if (!before.ok) throw new Error(before.error);
    const db = before.value.db;
    const task = new TaskRepository(db).create({ title: 'A', executor: 'local_pc', repositories: [{ path: '/w' }], env: {} });
    const session = new SessionRepository(db).create(task.id);
    const insert = db.prepare(
      `INSERT INTO lsp_leases (id, session_id, language, user_id, trust_workspace_tools, stream, workspace, initialize_result, registrations, trusted_tools, created_at)
       VALUES (?, ?, 'typescript', 'local', 0, 1, '{}', 'null', '[]', ?, 1)`,
    );
    insert.run('ts', session.id, JSON.stringify({ tsserverPath: '/opt/ts/lib/tsserver.js', network: 'off' }));
    insert.run('py', session.id, JSON.stringify({ pythonPath: '/usr/bin/python3' }));
    insert.run('kt', session.id, JSON.stringify({ buildFiles: ['build.gradle'] }));
    insert.run('none', session.id, null);
    db.close();
    const after = open(path);
    if (!after.ok) throw new Error(after.error);
    const pins = after.value.db.prepare('SELECT id, trusted_tools FROM lsp_leases ORDER BY id').all() as { id: string; trusted_tools: string | null }[];
    expect(Object.fromEntries(pins.map((row) => [row.id, row.trusted_tools === null ? null : (JSON.parse(row.trusted_tools) as unknown)]))).toEqual({
      ts: { tools: { tsserver: '/opt/ts/lib/tsserver.js' }, network: 'off' },
      py: { tools: { python: '/usr/bin/python3' } },
      kt: { buildFiles: ['build.gradle'] },
      none: null,
    });
  });

  it('a stored lease its schema refuses is left out and reported (its lease starts cold), the others are read', () => {
    const opened = open(tempDbPath());
    if (!opened.ok) throw new Error(opened.error);
    const db = opened.value.db;
    const task = new TaskRepository(db).create({ title: 'A', executor: 'local_pc', repositories: [{ path: '/w' }], env: {} });
    const session = new SessionRepository(db).create(task.id);
    const leases = new LeaseRepository(db);
    const workspace = { workspacePath: '/w', workspaceUri: 'file:///w', repoSubpaths: [] };
    const good = {
      id: 'good',
      sessionId: session.id,
      language: 'go' as const,
      userId: 'local',
      trustWorkspaceTools: false,
      stream: 1,
      workspace,
      initializeResult: null,
      registrations: [],
      createdAt: 1,
    };
    leases.save(good);
    leases.save({ ...good, id: 'bad-pins', stream: 2, createdAt: 2 });
    db.prepare('UPDATE lsp_leases SET trusted_tools = \'{"buildFiles":"pom.xml"}\' WHERE id = \'bad-pins\'').run();
    leases.save({ ...good, id: 'bad-json', stream: 3, createdAt: 3 });
    db.prepare("UPDATE lsp_leases SET workspace = '{' WHERE id = 'bad-json'").run();
    const refused: [string, string][] = [];
    expect(leases.forSession(session.id, (id, error) => refused.push([id, error.message]))).toEqual([good]);
    expect(refused).toEqual([
      ['bad-pins', 'persisted lease: trustedTools.buildFiles: must be an array of workspace-relative paths'],
      ['bad-json', expect.stringMatching(/^persisted lease: workspace\.workspaceUri: /)],
    ]);
  });

  it("deleting a task takes its sessions' agent tokens along, revoked or not (a foreign key would refuse otherwise)", () => {
    const opened = open(tempDbPath());
    if (!opened.ok) throw new Error(opened.error);
    const tasks = new TaskRepository(opened.value.db);
    const sessions = new SessionRepository(opened.value.db);
    const tokens = new AgentTokenRepository(opened.value.db);
    const task = tasks.create({ title: 'A', executor: 'local_pc', repositories: [{ path: '/w' }], env: {} });
    const stopped = sessions.create(task.id);
    const live = sessions.create(task.id);
    tokens.mint(stopped.id);
    tokens.revoke(stopped.id);
    tokens.mint(live.id);
    expect(tasks.delete(task.id)).toBe(true);
    expect(opened.value.db.prepare('SELECT COUNT(*) AS n FROM agent_tokens').get()).toEqual({ n: 0 });
  });
});
