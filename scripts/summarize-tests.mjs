// Prints the plain closing line 'N passed, N failed, N skipped' from Vitest's JSON report, and
// fails when no test ran at all (a suite that ran nothing must not look green).
import { readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    console.error(`no test report in ${file}`);
    failed += 1;
    continue;
  }
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  // A file that failed with no failed test in it (it did not load, or a hook threw) counts once;
  // a file whose tests failed is already counted by them.
  for (const suite of report.testResults ?? []) {
    const failedTests = (suite.assertionResults ?? []).filter((test) => test.status === 'failed').length;
    if (suite.status === 'failed' && failedTests === 0) failed += 1;
  }
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (passed + failed === 0) process.exit(1);
