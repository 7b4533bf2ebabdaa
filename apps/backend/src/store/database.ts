import Database from 'better-sqlite3';
import { MIGRATIONS, type Migration } from './migrations.js';
import { fail, messageOf, ok, type Result } from '../base/result.js';

export type Db = Database.Database;

export interface MigrationReport {
  applied: number[];
  version: number;
}

/**
 * Opens (or creates) the database and brings its schema up to date. Each migration runs in its own
 * transaction with its row in `schema_migrations`, so a crash leaves the file at a known version.
 */
export function openDatabase(path: string, migrations: readonly Migration[] = MIGRATIONS): Result<{ db: Db; report: MigrationReport }, string> {
  let db: Db;
  try {
    db = new Database(path);
  } catch (err) {
    return fail(`cannot open database ${path}: ${messageOf(err)}`);
  }
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const report = migrate(db, migrations);
  if (!report.ok) {
    db.close();
    return report;
  }
  return ok({ db, report: report.value });
}

export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): Result<MigrationReport, string> {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const current = (db.prepare('SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations').get() as { v: number }).v;
  const latest = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  if (current > latest) {
    // A newer Kandev wrote this file; running old code on it could corrupt data it does not know.
    return fail(`database schema version ${current} is newer than this backend knows (${latest}); upgrade Kandev`);
  }
  const applied: number[] = [];
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (migration.version <= current) continue;
    try {
      db.transaction(() => {
        db.exec(migration.sql);
        record.run(migration.version, migration.name, new Date().toISOString());
      })();
    } catch (err) {
      return fail(`migration ${migration.version} (${migration.name}) failed: ${messageOf(err)}`);
    }
    applied.push(migration.version);
  }
  return ok({ applied, version: Math.max(current, latest) });
}
