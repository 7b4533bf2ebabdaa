import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { LANGUAGE_DESCRIPTORS, SERVER_FEATURES, type ServerFeature } from '@kandev/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Measurement } from '../../scripts/capability-measure.js';
import { currentCapabilityTable, REGENERATE_COMMAND, renderCapabilityTable } from '../../scripts/capability-render.js';
import { languagesDoc, measureAll } from '../../scripts/capability-table.js';
import { prerequisite } from '../support/env.js';

/**
 * The capability table is measured, not written: every catalog server this machine can run is
 * started as Kandev starts it (the web app's initialize request, Kandev's options and settings),
 * and what it offers in its initialize result and registrations must be what its language
 * descriptor claims (`offers`) and what docs/languages.md's generated table says. A server that
 * cannot run here must be a descriptor that says so.
 */
const ready = prerequisite(
  (() => {
    try {
      execFileSync('npm', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })(),
  'npm (the catalog servers are installed with it)',
);

let measurements: Measurement[] = [];

beforeAll(async () => {
  if (ready) measurements = await measureAll();
}, 900_000);

/** What `actual` has beyond `claimed`, and what `claimed` has beyond `actual`. */
function difference(actual: readonly ServerFeature[], claimed: readonly ServerFeature[]): string {
  const missing = actual.filter((f) => !claimed.includes(f));
  const extra = claimed.filter((f) => !actual.includes(f));
  return `offered but not claimed: [${missing.join(', ')}]; claimed but not offered: [${extra.join(', ')}]`;
}

describe.runIf(ready)('the capability table', () => {
  for (const d of LANGUAGE_DESCRIPTORS) {
    it(`${d.id}: the descriptor claims what ${d.server.binary} offers`, () => {
      const measured = measurements.find((m) => m.language === d.id);
      expect(measured, `${d.id} was not measured`).toBeDefined();
      const m = measured as Measurement;
      if (d.offers.kind === 'not_measured') {
        expect(m.kind, `${d.server.binary} runs here now: claim what it offers (${m.kind === 'measured' ? m.features.join(', ') : ''})`).toBe('not_run');
        return;
      }
      if (m.kind === 'not_run') throw new Error(`${d.id}: ${d.server.binary} did not run: ${m.reason}`);
      // Claims are listed in SERVER_FEATURES order, as the measurement reports them.
      const claimed = SERVER_FEATURES.filter((f) => (d.offers.kind === 'measured' ? d.offers.features : []).includes(f));
      expect(m.features, `${d.id}: ${difference(m.features, claimed)}`).toEqual(claimed);
    });
  }

  it(`docs/languages.md's table is the measured one (regenerate with \`${REGENERATE_COMMAND}\`)`, () => {
    const documented = currentCapabilityTable(readFileSync(languagesDoc, 'utf8'));
    expect(documented, `docs/languages.md's capability table is not what the servers offer today: run \`${REGENERATE_COMMAND}\``).toBe(
      renderCapabilityTable(measurements),
    );
  });
});
