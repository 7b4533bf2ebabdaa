#!/usr/bin/env node
// Writes test/durations.json (seconds per integration and browser test file) from the JSON
// reports of a whole `npm test` run in test-results/, for the slowest-first order of
// test/support/slowestFirst.ts. Run it after a full run on a machine of CI's kind and commit the file.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const reports = readdirSync(join(root, 'test-results')).filter((f) => /^(integration|e2e)-.*\.json$/.test(f));
const seconds = {};
for (const report of reports) {
  const { testResults } = JSON.parse(readFileSync(join(root, 'test-results', report), 'utf8'));
  for (const file of testResults) {
    // Keyed from test/ on, so a report written in another clone of the repository reads the same.
    seconds[file.name.slice(file.name.lastIndexOf('/test/') + 1)] = Math.round((file.endTime - file.startTime) / 100) / 10;
  }
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(join(root, 'test/durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(sorted).length} files from ${reports.join(', ')}`);
