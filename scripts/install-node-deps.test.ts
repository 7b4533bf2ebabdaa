import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const script = readFileSync(join(root, 'scripts/install-node-deps.sh'), 'utf8');

function listed(name: string): string[] {
  const m = new RegExp(`^${name}=\\(([^)]*)\\)`, 'm').exec(script);
  if (!m) throw new Error(`${name} not found in install-node-deps.sh`);
  return m[1]!.trim().split(/\s+/);
}

/** The package name of a lockfile entry's path (node_modules/a/node_modules/@s/b -> @s/b). */
function packageName(path: string): string {
  return path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

describe('install-node-deps.sh', () => {
  it('names every lockfile package with an install script once: compiled later (native) or at once (quick)', () => {
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = new Set(
      Object.entries(lock.packages)
        .filter(([path, pkg]) => pkg.hasInstallScript && path.includes('node_modules/'))
        .map(([path]) => packageName(path)),
    );
    const native = listed('native_packages');
    const quick = listed('quick_packages');
    expect(native.filter((name) => quick.includes(name))).toEqual([]);
    expect([...native, ...quick].sort()).toEqual([...withScripts].sort());
  });
});
