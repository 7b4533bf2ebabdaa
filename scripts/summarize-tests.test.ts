import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScript, scratchTrees } from './lib/scratchTree.js';

const script = join(dirname(fileURLToPath(import.meta.url)), 'summarize-tests.mjs');
const tree = scratchTrees('summarize-tests-');

const report = (testResults: unknown[], counts: { passed: number; failed: number; pending?: number }): string =>
  JSON.stringify({ numPassedTests: counts.passed, numFailedTests: counts.failed, numPendingTests: counts.pending ?? 0, testResults });

describe('summarize-tests', () => {
  it('names each failed test with its file and the first lines of its message, before the closing line', () => {
    const root = tree({
      'unit.json': report(
        [
          {
            name: '/repo/apps/web/src/a.test.ts',
            status: 'failed',
            assertionResults: [
              { status: 'passed', fullName: 'a works' },
              {
                status: 'failed',
                fullName: 'a > keeps the order',
                failureMessages: [
                  '\u001b[31mAssertionError: expected 2 to be 3\u001b[39m\n\n    at a.test.ts:12:5\n    at 2\n    at 3\n    at 4\n    at 5\n    at 6',
                ],
              },
            ],
          },
          { name: '/repo/bench/b.test.ts', status: 'failed', message: 'Error: Cannot find module x', assertionResults: [] },
        ],
        { passed: 1, failed: 1, pending: 2 },
      ),
    });
    const result = runScript(script, join(root, 'unit.json'));
    expect(result.status).toBe(0);
    const lines = result.output.trimEnd().split('\n');
    expect(lines[0]).toBe('== failed (2)');
    expect(lines[1]).toMatch(/^✗ .*apps\/web\/src\/a\.test\.ts > a > keeps the order$/);
    expect(lines[2]).toBe('    AssertionError: expected 2 to be 3');
    expect(lines.filter((line) => line.startsWith('    at '))).toHaveLength(5);
    expect(result.output).toMatch(/✗ .*bench\/b\.test\.ts > \(the file itself\)\n {4}Error: Cannot find module x/);
    expect(lines.at(-1)).toBe('1 passed, 2 failed, 2 skipped');
  });

  it('prints only the closing line when nothing failed, and fails when nothing ran', () => {
    const root = tree({
      'ok.json': report([{ name: '/r/x.test.ts', status: 'passed', assertionResults: [{ status: 'passed' }] }], { passed: 1, failed: 0 }),
      'none.json': report([], { passed: 0, failed: 0 }),
    });
    expect(runScript(script, join(root, 'ok.json'))).toEqual({ status: 0, output: '1 passed, 0 failed, 0 skipped\n' });
    expect(runScript(script, join(root, 'none.json')).status).toBe(1);
  });
});
