import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { ModuleDiagnostic, Reporter, TestModule } from 'vitest/node';

/**
 * A Vitest reporter that records each test file's whole time, in seconds, into the JSON file named
 * by KANDEV_TEST_FILE_DURATIONS (`npm test` sets test-results/<run>-files.json), for
 * scripts/record-test-durations.mjs and the slowest-first order. Vitest's JSON report times a file
 * from its first test to its last, leaving out beforeAll and afterAll, where an integration or
 * browser file starts its stack, its browser contexts and its servers: a file whose cost is in
 * setup looked short and was started late.
 */
const root = join(import.meta.dirname, '../..');

type Phases = Pick<ModuleDiagnostic, 'environmentSetupDuration' | 'prepareDuration' | 'setupDuration' | 'collectDuration' | 'duration'>;

/**
 * The file's time in its worker, to a tenth of a second: environment, runner, setup files, import
 * (collection) and the run of the file's suite, whose duration holds its beforeAll and afterAll hooks.
 */
export function wholeFileSeconds(phases: Phases): number {
  const ms = phases.environmentSetupDuration + phases.prepareDuration + phases.setupDuration + phases.collectDuration + phases.duration;
  return Math.round(ms / 100) / 10;
}

export default class FileDurationsReporter implements Reporter {
  private readonly seconds: Record<string, number> = {};

  onTestModuleEnd(testModule: TestModule): void {
    this.seconds[relative(root, testModule.moduleId)] = wholeFileSeconds(testModule.diagnostic());
  }

  onTestRunEnd(): void {
    const output = process.env.KANDEV_TEST_FILE_DURATIONS;
    if (!output) return;
    mkdirSync(dirname(output), { recursive: true });
    writeFileSync(output, `${JSON.stringify(this.seconds, null, 2)}\n`);
  }
}
