// Installs the npm language servers of the browser files into the shared folder of
// test/support/preinstalledServers.ts, ahead of them: `npm test` runs it in the background beside
// the unit and integration tests, which mostly wait, so that on a fresh machine the first browser
// file does not spend minutes in npm. Every npm recipe of the catalog is installed: the browser
// files' languages are taken from the catalog, so no second list can fall behind theirs (today they
// use every npm recipe). Each recipe is installed under its lock, so a browser file that needs it
// meanwhile waits instead of installing it twice; one that fails here is installed by the file itself.
// Exits 1 when a recipe failed, after trying all of them.
import { LANGUAGE_IDS } from '@kandev/protocol';
import { ensureCached, npmRecipes } from '../test/support/preinstalledServers.js';

const seconds = (since: number) => Math.round((Date.now() - since) / 1000);
/** npm's cause is in its first lines, then a stack; the path of its full log is on the last. */
function gist(err: unknown): string {
  const lines = (err instanceof Error ? err.message : String(err)).trim().split('\n');
  const fullLog = lines.find((line) => line.includes('A complete log of this run'));
  return [...lines.slice(0, 6), ...(fullLog && !lines.slice(0, 6).includes(fullLog) ? [fullLog] : [])].join('\n');
}
const started = Date.now();
const failed: string[] = [];
let installed = 0;
const recipes = npmRecipes(LANGUAGE_IDS);
for (const recipe of recipes) {
  const since = Date.now();
  try {
    const { installedNow } = await ensureCached(recipe);
    if (installedNow) installed += 1;
    console.log(`${recipe.dir}: ${installedNow ? 'installed' : 'already there'} (${seconds(since)} s)`);
  } catch (err) {
    failed.push(recipe.dir);
    console.log(`${recipe.dir}: FAILED after ${seconds(since)} s: ${gist(err)}`);
  }
}
console.log(
  `${recipes.length} npm recipes in ${seconds(started)} s: ${installed} installed, ${recipes.length - installed - failed.length} already there, ${failed.length} failed${failed.length ? ` (${failed.join(', ')})` : ''}`,
);
process.exitCode = failed.length ? 1 : 0;
