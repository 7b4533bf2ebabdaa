import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { languageDescriptor, MANAGED_ROOT_SEGMENTS, NPM_BIN_SEGMENTS, type LanguageId, type NpmRecipe } from '@kandev/protocol';
import { npmInstallArgs } from '../../apps/agentctl/src/install/npmInstallArgs.js';

/**
 * The npm-installed language servers, installed once per machine (per day and catalog pin) into a
 * shared folder and copied into a task HOME's managed root, as agentctl's own install leaves them:
 * `$HOME/.kandev/lsp-servers/<recipe dir>/node_modules/.bin/<bin>`. agentctl then finds them
 * installed and starts them at once. For the browser files that check what a server does, not how
 * it installs: the install itself (npm into the task HOME, its states, its failures) is proven by
 * test/integration/install-npm.test.ts, languages-real-servers.test.ts and the trust-* files, which
 * start from an empty HOME.
 *
 * The command is agentctl's (`npm install --prefix <staging> --ignore-scripts <the recipe's
 * packages>`), with npm's download cache shared to spare the registry. The folder's key holds the
 * recipe's packages and the day, so a range the catalog pins (`yaml-language-server@1`) is resolved
 * again at least daily, as a fresh task HOME would.
 *
 * `npm test` fills the folder in the background from the start of its tests
 * (scripts/preinstall-test-servers.ts), so the browser files find the servers there; a file that
 * needs a recipe not there yet installs it itself, or waits for the install holding its lock.
 * KANDEV_TEST_SERVERS_DIR moves the folder (a cold install measured without touching the shared one).
 */
const CACHE = process.env.KANDEV_TEST_SERVERS_DIR ?? join(tmpdir(), 'kandev-test-servers');
/** Another test process installing the same recipe: how long its lock may stand before it is taken as dead. */
const STALE_LOCK_MS = 10 * 60_000;

const npmCache = () => execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();

function recipeOf(language: LanguageId): NpmRecipe | undefined {
  const install = languageDescriptor(language).install;
  return install.kind === 'npm' ? install : undefined;
}

function cacheEntry(recipe: NpmRecipe): string {
  const day = new Date().toISOString().slice(0, 10);
  const key = createHash('sha256')
    .update(JSON.stringify([recipe.packages, day]))
    .digest('hex')
    .slice(0, 16);
  return join(CACHE, `${recipe.dir}-${key}`);
}

/** Folders of earlier days are no longer used (the key changed at midnight): after two days they go. */
const PRUNE_AFTER_MS = 2 * 24 * 3600_000;
let pruned = false;

/** Removes other days' installs (several hundred MB each) once per process; a folder in use is recent. */
function pruneOldEntries(): void {
  if (pruned) return;
  pruned = true;
  for (const name of existsSync(CACHE) ? readdirSync(CACHE) : []) {
    const path = join(CACHE, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > PRUNE_AFTER_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed meanwhile by another test process.
    }
  }
}

const launcher = (dir: string, recipe: NpmRecipe) => join(dir, ...NPM_BIN_SEGMENTS, recipe.bin);

/** Holds a lock folder while `work` runs; waits for another process's install of the same recipe. */
async function underLock(lock: string, work: () => void): Promise<void> {
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'since'), String(Date.now()));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let since = Date.now();
      try {
        since = Number(readFileSync(join(lock, 'since'), 'utf8')) || since;
      } catch {
        // Taken a moment ago and not yet stamped: it is fresh.
      }
      if (Date.now() - since > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The distinct npm recipes of `languages` (JSON, CSS and HTML share one). */
export function npmRecipes(languages: readonly LanguageId[]): NpmRecipe[] {
  const recipes = new Map<string, NpmRecipe>();
  for (const language of languages) {
    const recipe = recipeOf(language);
    if (recipe) recipes.set(recipe.dir, recipe);
  }
  return [...recipes.values()];
}

/** Installs `recipe` into the shared folder unless it is there; says whether this call installed it. */
export async function ensureCached(recipe: NpmRecipe): Promise<{ entry: string; installedNow: boolean }> {
  pruneOldEntries();
  const entry = cacheEntry(recipe);
  if (existsSync(launcher(entry, recipe))) return { entry, installedNow: false };
  mkdirSync(CACHE, { recursive: true });
  let installedNow = false;
  await underLock(`${entry}.lock`, () => {
    if (existsSync(launcher(entry, recipe))) return; // installed by the process that held the lock
    const staging = `${entry}.staging`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    const args = npmInstallArgs(staging, recipe.packages, 'error');
    try {
      execFileSync('npm', args, { cwd: staging, stdio: 'pipe', timeout: 600_000, env: { ...process.env, npm_config_cache: npmCache() } });
      if (!existsSync(launcher(staging, recipe))) throw new Error(`npm install of ${recipe.packages.join(' ')} left no ${recipe.bin} launcher`);
    } catch (err) {
      rmSync(staging, { recursive: true, force: true }); // a failed install leaves no half folder behind
      throw err;
    }
    renameSync(staging, entry);
    installedNow = true;
  });
  return { entry, installedNow };
}

/**
 * Puts the npm servers of `languages` (others are skipped: Debian's, `go install`ed, downloaded)
 * into `home`'s managed root, installing each recipe into the shared folder first if it is not
 * there. Languages that share a recipe folder (JSON, CSS, HTML) are copied once.
 */
export async function preinstallServers(home: string, languages: readonly LanguageId[]): Promise<void> {
  for (const recipe of npmRecipes(languages)) {
    const { entry } = await ensureCached(recipe);
    const target = join(home, ...MANAGED_ROOT_SEGMENTS, recipe.dir);
    mkdirSync(join(home, ...MANAGED_ROOT_SEGMENTS), { recursive: true });
    // Hard links: the copy costs no disk and little time; npm's .bin links are relative, so they hold.
    try {
      execFileSync('cp', ['-al', entry, target], { stdio: 'pipe' });
    } catch {
      rmSync(target, { recursive: true, force: true });
      cpSync(entry, target, { recursive: true, verbatimSymlinks: true });
    }
  }
}
