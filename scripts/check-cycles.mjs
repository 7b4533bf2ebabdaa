#!/usr/bin/env node
// Fails when a module or a folder imports itself back through others. Cycles make load order matter
// and blur which layer owns what (STYLE: layering), so `npm test` refuses them (scripts/test.sh runs
// it on every package and app). Type-only imports count too: a cycle of types is still a cycle of
// knowledge between two folders. A root's own files (an app's main, server, config) are one folder
// like any other: the composition root, which imports the folders and is imported by none, so
// shared helpers live in a folder of their own (base/).
//   node scripts/check-cycles.mjs [root ...]   (default: every workspace's src/)
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rootArgs, sourcesUnder } from './lib/sourceRoots.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `usage: node scripts/check-cycles.mjs [root ...]

Fails (exit 1) on an import cycle between modules or between folders under each root.
With no root, checks every workspace's src/ (packages/*/src, apps/*/src).

options:
  -h, --help   print this text and exit`;

const roots =
  rootArgs('check-cycles', USAGE) ??
  ['packages', 'apps'].flatMap((top) => readdirSync(join(repo, top)).map((name) => join(repo, top, name, 'src'))).filter(existsSync);

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"`;]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** `./x.js` written in TypeScript source names `./x.ts`, `./x.tsx` or `./x/index.ts`. */
function resolveSpecifier(from, spec) {
  const base = resolve(dirname(from), spec);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Strongly connected components with more than one member (or a self edge), iteratively (Tarjan). */
function cycles(graph) {
  let counter = 0;
  const index = new Map(),
    low = new Map(),
    onStack = new Set(),
    stack = [],
    found = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [[start, [...(graph.get(start) ?? [])], 0]];
    index.set(start, counter);
    low.set(start, counter);
    counter++;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, edges] = frame;
      if (frame[2] < edges.length) {
        const next = edges[frame[2]++];
        if (!index.has(next)) {
          index.set(next, counter);
          low.set(next, counter);
          counter++;
          stack.push(next);
          onStack.add(next);
          work.push([next, [...(graph.get(next) ?? [])], 0]);
        } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const members = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          members.push(member);
        } while (member !== node);
        if (members.length > 1 || graph.get(node)?.has(node)) found.push(members.sort());
      }
    }
  }
  return found;
}

/** The folder a module belongs to for layering; a root's own files form the root's folder. */
const folderOf = (file) => dirname(file);

const moduleGraph = new Map();
const folderGraph = new Map();
for (const root of roots) {
  for (const file of sourcesUnder(root)) {
    const text = readFileSync(file, 'utf8');
    const edges = moduleGraph.get(file) ?? new Set();
    moduleGraph.set(file, edges);
    for (const match of text.matchAll(IMPORT)) {
      const target = resolveSpecifier(file, match[1] ?? match[2]);
      if (!target) continue;
      edges.add(target);
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from === to) continue;
      // A folder may use its own subfolders; a subfolder reaching up into its parent is an edge too.
      if (!folderGraph.has(from)) folderGraph.set(from, new Set());
      folderGraph.get(from).add(to);
    }
  }
}

const rel = (p) => relative(repo, p) || '.';
const moduleCycles = cycles(moduleGraph);
const folderCycles = cycles(folderGraph);
for (const c of moduleCycles) console.error(`module cycle: ${c.map(rel).join(' <-> ')}`);
for (const c of folderCycles) console.error(`folder cycle: ${c.map(rel).join(' <-> ')}`);
const modules = moduleGraph.size;
if (moduleCycles.length + folderCycles.length > 0) {
  console.error(`check-cycles: ${moduleCycles.length} module and ${folderCycles.length} folder cycle(s) in ${modules} modules`);
  process.exit(1);
}
console.log(`check-cycles: no import cycle in ${modules} modules`);
