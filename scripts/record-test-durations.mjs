#!/usr/bin/env node
// Writes test/durations.json (seconds per integration and browser test file) from a whole
// `npm test` run's test-results/<run>-files.json (test/support/fileDurationsReporter.ts: each
// file's whole time, its beforeAll and afterAll included), for the slowest-first order of
// test/support/slowestFirst.ts. Run it after a full run on a machine of CI's kind and commit the file.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const reports = readdirSync(join(root, 'test-results')).filter((f) => /^(integration|e2e)-.*-files\.json$/.test(f));
if (reports.length === 0) {
  console.error('no test-results/{integration,e2e}-*-files.json: run `npm test` first');
  process.exit(1);
}
const seconds = {};
for (const report of reports) Object.assign(seconds, JSON.parse(readFileSync(join(root, 'test-results', report), 'utf8')));
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(join(root, 'test/durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(sorted).length} files from ${reports.join(', ')}`);
