#!/usr/bin/env node
// Fails when a file under bench/results (the figures the docs quote) carries what belongs to the
// machine or the people that produced it rather than to the product: an absolute path of a checkout
// or a temporary folder (`/work/...`, `/home/...`, `/tmp/...`), or words about who ran or wrote it.
// A result is read by someone on another machine; a path of ours says nothing to them and a note
// about who did what goes stale. Benchmarks write paths relative to the repository instead.
//   node scripts/check-bench-results.mjs [folder]   (default: bench/results)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const folder = resolve(process.argv[2] ?? join(repo, 'bench/results'));

/** What may not appear, each with the reason printed beside a finding. */
const RULES = [
  { pattern: /(?<![\w.])\/(?:work|home|root|tmp|Users|var\/folders)\/[\w.@+-]+(?:\/[\w.@+-]+)*/g, why: 'a path of the machine that ran it' },
  { pattern: /\b(?:helpers?|coordinator|subagents?|Claude|ChatGPT|Copilot|LLM)\b/gi, why: 'words about who ran or wrote it' },
  { pattern: /\b(?:written|authored|generated|measured|run) by (?:me|us|the team|a person)\b/gi, why: 'words about who ran or wrote it' },
];

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const findings = [];
const files = filesUnder(folder).filter((f) => /\.(md|json|txt|csv)$/.test(f));
for (const file of files) {
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, index) => {
    for (const { pattern, why } of RULES) {
      for (const match of line.matchAll(pattern)) findings.push(`${relative(repo, file)}:${index + 1}: "${match[0]}": ${why}`);
    }
  });
}
if (findings.length > 0) {
  console.error(`bench results must carry neither machine paths nor words about who ran them:\n${findings.join('\n')}`);
  process.exit(1);
}
console.log(`no machine path or authorship words in ${files.length} result files`);
