import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestModule } from 'vitest/node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import FileDurationsReporter, { wholeFileSeconds } from './fileDurationsReporter.js';

const phases = { environmentSetupDuration: 120, prepareDuration: 80, setupDuration: 0, collectDuration: 1_450, duration: 42_300 };
const root = join(import.meta.dirname, '../..');

describe('whole time of a test file', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('adds the setup phases and the suite run (its hooks included), in tenths of a second', () => {
    expect(wholeFileSeconds(phases)).toBe(44);
    expect(wholeFileSeconds({ ...phases, duration: 42_349 })).toBe(44);
    expect(wholeFileSeconds({ ...phases, duration: 42_440 })).toBe(44.1);
  });

  it('writes each file under its path from the repository root to the file the run names', () => {
    const output = join(mkdtempSync(join(tmpdir(), 'kandev-file-durations-')), 'e2e-parallel-files.json');
    vi.stubEnv('KANDEV_TEST_FILE_DURATIONS', output);
    const reporter = new FileDurationsReporter();
    const module = (path: string, duration: number) => ({ moduleId: join(root, path), diagnostic: () => ({ ...phases, duration }) }) as unknown as TestModule;
    reporter.onTestModuleEnd(module('test/e2e/a.test.ts', 8_350));
    reporter.onTestModuleEnd(module('test/e2e/b.test.ts', 98_350));
    reporter.onTestRunEnd();
    expect(JSON.parse(readFileSync(output, 'utf8'))).toEqual({ 'test/e2e/a.test.ts': 10, 'test/e2e/b.test.ts': 100 });
  });
});
