import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScript, scratchTrees } from './lib/scratchTree.js';

const script = join(dirname(fileURLToPath(import.meta.url)), 'check-cycles.mjs');
/** A throwaway source root with the given files (path relative to the root -> text). */
const tree = scratchTrees('check-cycles-');
const check = (...roots: string[]) => runScript(script, ...roots);

describe('check-cycles', () => {
  it('passes an acyclic tree, whatever the layering depth', () => {
    const root = tree({
      'main.ts': "import { b } from './b/b.js';\nexport const main = b;\n",
      'b/b.ts': "import type { C } from '../c/c.js';\nexport const b: C = 1;\n",
      'c/c.ts': 'export type C = number;\n',
    });
    const result = check(root);
    expect(result.output).toContain('no import cycle in 3 modules');
    expect(result.status).toBe(0);
  });

  it('fails on a module cycle, type-only imports included', () => {
    const root = tree({
      'a.ts': "import type { B } from './b.js';\nexport type A = B | 1;\n",
      'b.ts': "import type { A } from './a.js';\nexport type B = A | 2;\n",
    });
    const result = check(root);
    expect(result.status).toBe(1);
    expect(result.output).toMatch(/module cycle: .*a\.ts <-> .*b\.ts/);
  });

  it('fails on a folder cycle even when the modules themselves do not cycle', () => {
    const root = tree({
      'x/one.ts': "import { two } from '../y/two.js';\nexport const one = two;\n",
      'x/three.ts': 'export const three = 3;\n',
      'y/two.ts': "import { three } from '../x/three.js';\nexport const two = three;\n",
    });
    const result = check(root);
    expect(result.status).toBe(1);
    expect(result.output).toMatch(/folder cycle: .*x <-> .*y/);
    expect(result.output).not.toContain('module cycle');
  });

  it("treats a root's own files as one folder: a folder reaching back into the composition root is a cycle", () => {
    const root = tree({
      'main.ts': "import { serve } from './http/serve.js';\nexport const main = serve;\n",
      'log.ts': 'export const log = 1;\n',
      'http/serve.ts': "import { log } from '../log.js';\nexport const serve = log;\n",
    });
    const result = check(root);
    expect(result.status).toBe(1);
    expect(result.output).toMatch(/folder cycle: \S*check-cycles-\w+ <-> \S*check-cycles-\w+\/http\n/);
    expect(result.output).not.toContain('module cycle');
  });

  it('checks every root it is given', () => {
    const clean = tree({ 'ok.ts': 'export const ok = 1;\n' });
    const cyclic = tree({ 'a.ts': "export { b } from './b.js';\nexport const a = 1;\n", 'b.ts': "export { a } from './a.js';\nexport const b = 2;\n" });
    expect(check(clean).status).toBe(0);
    expect(check(clean, cyclic).status).toBe(1);
  });

  it('prints usage for --help and -h instead of reading them as folders', () => {
    for (const flag of ['--help', '-h']) {
      const result = check(flag);
      expect(result.status).toBe(0);
      expect(result.output).toMatch(/^usage: node scripts\/check-cycles\.mjs \[root \.\.\.\]/);
    }
  });

  it('refuses an unknown option or a root that is not a folder, with the usage, and checks nothing', () => {
    const clean = tree({ 'ok.ts': 'export const ok = 1;\n' });
    const option = check('--verbose', clean);
    expect(option.status).toBe(2);
    expect(option.output).toContain('unknown option --verbose');
    expect(option.output).toContain('usage:');
    const missing = check(join(clean, 'nope'));
    expect(missing.status).toBe(2);
    expect(missing.output).toMatch(/not a folder: .*nope/);
    expect(missing.output).not.toContain('no import cycle');
  });
});
