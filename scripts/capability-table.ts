/**
 * Measures which language features each catalog server offers and writes the table into
 * docs/languages.md (between its capability-table markers):
 *
 *   node --import tsx scripts/capability-table.ts
 *
 * Every language descriptor's server is started as Kandev starts it, with the web app's
 * initialize request; npm servers missing here are installed as agentctl would, into a cache
 * folder reused by later runs (and by test/integration/capability-table.test.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LANGUAGE_DESCRIPTORS } from '@kandev/protocol';
import { measureServer, type Measurement } from './capability-measure.js';
import { renderCapabilityTable, withCapabilityTable } from './capability-render.js';
import { execFileSync } from 'node:child_process';

export const repoRoot = resolve(import.meta.dirname, '..');
export const languagesDoc = join(repoRoot, 'docs/languages.md');

/**
 * The task environment the servers are found and installed in: the repository's own servers
 * (node_modules/.bin) and the machine's PATH, and a HOME under node_modules/.cache whose managed
 * root keeps the npm installs between runs. npm's configuration and download cache are the user's.
 */
export function measurementEnv(): Record<string, string> {
  const home = join(repoRoot, 'node_modules/.cache/kandev-capability-table');
  const npm = (key: string) => execFileSync('npm', ['config', 'get', key], { encoding: 'utf8' }).trim();
  return {
    ...(process.env as Record<string, string>),
    HOME: home,
    // The person's npm configuration (registry, certificates) and download cache, though HOME moved.
    npm_config_userconfig: npm('userconfig'),
    npm_config_cache: npm('cache'),
    PATH: [join(repoRoot, 'node_modules/.bin'), process.env.PATH ?? '/usr/bin:/bin'].join(':'),
    // gopls must not reach for a module proxy on a machine without a route out.
    GOFLAGS: '-mod=mod',
    GOPROXY: 'off',
  };
}

/** Every descriptor's server, one after another (they are heavy; the machine is shared). */
/**
 * Servers measured at once. Each spends most of its time installing (npm) or waiting for its own
 * two seconds of quiet, so one after another left the machine mostly idle (22 servers, about two
 * minutes). Each has a workspace of its own; installs of one folder by two languages (the VS Code
 * servers) are safe, as agentctl's own are (an atomic publish).
 */
const MEASURED_AT_ONCE = 4;

export async function measureAll(log: (line: string) => void = () => {}, atOnce = MEASURED_AT_ONCE): Promise<Measurement[]> {
  const work = mkdtempSync(join(tmpdir(), 'kandev-capabilities-'));
  const env = measurementEnv();
  try {
    const out: Measurement[] = new Array(LANGUAGE_DESCRIPTORS.length);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < LANGUAGE_DESCRIPTORS.length; i = next++) {
        const d = LANGUAGE_DESCRIPTORS[i]!;
        const measured = await measureServer(d, { work, env });
        log(
          `${d.id} (${d.server.binary}): ${measured.kind === 'measured' ? `${measured.serverInfo ?? ''} ${measured.features.join(', ')}` : `not run: ${measured.reason}`}`,
        );
        out[i] = measured;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, atOnce) }, worker));
    return out;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const measurements = await measureAll((line) => console.log(line));
  const table = renderCapabilityTable(measurements);
  writeFileSync(languagesDoc, withCapabilityTable(readFileSync(languagesDoc, 'utf8'), table));
  console.log(table);
}
