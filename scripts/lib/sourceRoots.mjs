// What the source checks (check-cycles, check-contract) read: the roots of their command line
// (`[root ...]`, `--help`) and the non-test TypeScript sources under each.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The roots named on the command line, resolved; `undefined` when none is named (the caller's
 * default applies). `--help`/`-h` prints the usage and exits 0; an unknown option or a root that
 * is not a folder is refused with the usage and exit 2, before anything is checked.
 */
export function rootArgs(name, usage, args = process.argv.slice(2)) {
  if (args.includes('-h') || args.includes('--help')) {
    console.log(usage);
    process.exit(0);
  }
  const unknown = args.filter((arg) => arg.startsWith('-'));
  const missing = args.filter((arg) => !arg.startsWith('-') && !(existsSync(arg) && statSync(arg).isDirectory()));
  if (unknown.length > 0 || missing.length > 0) {
    for (const arg of unknown) console.error(`${name}: unknown option ${arg}`);
    for (const arg of missing) console.error(`${name}: not a folder: ${arg}`);
    console.error(usage);
    process.exit(2);
  }
  return args.length > 0 ? args.map((root) => resolve(root)) : undefined;
}

/** The TypeScript sources under a folder, tests (`*.test.ts[x]`), node_modules and dist left out. */
export function sourcesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return sourcesUnder(path);
    return /\.(ts|tsx|mts)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}
