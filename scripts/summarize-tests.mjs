// Prints the plain closing line 'N passed, N failed, N skipped' from Vitest's JSON reports, preceded
// by each failure's file, title and first message lines: CI keeps only the tail of a run's output,
// and a red run whose failures scrolled out of it could not be told apart from a flake elsewhere.
// Fails when no test ran at all (a suite that ran nothing must not look green).
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const MESSAGE_LINES = 6;
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const firstLines = (messages) =>
  (messages ?? [])
    .join('\n')
    .split('\n')
    .map((line) => stripVTControlCharacters(line).trim())
    .filter((line) => line !== '')
    .slice(0, MESSAGE_LINES);
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
  for (const suite of report.testResults ?? []) {
    const where = relative(process.cwd(), suite.name ?? '?');
    const failedTests = (suite.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests) failures.push({ where, title: test.fullName ?? test.title, lines: firstLines(test.failureMessages) });
    // A file that failed with no failed test in it (it did not load, or a hook threw) counts once;
    // a file whose tests failed is already counted by them.
    if (suite.status === 'failed' && failedTests.length === 0) {
      failed += 1;
      failures.push({ where, title: '(the file itself)', lines: firstLines([suite.message ?? '']) });
    }
  }
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
if (failures.length > 0) {
  console.log(`== failed (${failures.length})`);
  for (const { where, title, lines } of failures) {
    console.log(`✗ ${where} > ${title}`);
    for (const line of lines) console.log(`    ${line}`);
  }
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (passed + failed === 0) process.exit(1);
