import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NAMESPACES } from './catalogs.js';

const repoRoot = join(import.meta.dirname, '../../../..');
const localesDir = join(repoRoot, 'apps/web/src/locales');

interface PseudoGenerator {
  pseudoLocalize(text: string): string;
  generatePseudoCatalogs(dir?: string): Record<string, string>;
}

async function generator(): Promise<PseudoGenerator> {
  // The generator is a plain Node script (scripts/pseudo-locale.mjs); the test runs exactly that code.
  return (await import(pathToFileURL(join(repoRoot, 'scripts/pseudo-locale.mjs')).href)) as PseudoGenerator;
}

describe('pseudo locale', () => {
  it('the committed pseudo catalogs equal the generator output from en (run node scripts/pseudo-locale.mjs)', async () => {
    const generated = (await generator()).generatePseudoCatalogs(localesDir);
    // One pseudo catalog per registered namespace (catalogs.ts), no more, no fewer.
    expect(Object.keys(generated).sort()).toEqual(NAMESPACES.map((ns) => `${ns}.json`).sort());
    for (const [file, text] of Object.entries(generated)) {
      expect(readFileSync(join(localesDir, 'pseudo', file), 'utf8'), `pseudo/${file}`).toBe(text);
    }
  });

  it('accents, brackets and lengthens text but keeps {{placeholders}} and $t() nesting intact', async () => {
    const { pseudoLocalize } = await generator();
    const out = pseudoLocalize('Installing {{language}} on the task host for {{ count }} $t(lsp:state.ready) now');
    expect(out.startsWith('[!! ') && out.endsWith(' !!]')).toBe(true);
    expect(out).toContain('{{language}}');
    expect(out).toContain('{{ count }}');
    expect(out).toContain('$t(lsp:state.ready)');
    expect(out).toContain('Îñšţàĺĺîñĝ');
    expect(out).not.toMatch(/Installing|task|host/);
    const source = 'Installing  on the task host for   now';
    expect(out.length).toBeGreaterThan(source.length * 1.3);
  });
});
