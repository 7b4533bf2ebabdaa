/**
 * One run of the product path with the backend under `node --cpu-prof`, reduced to the functions
 * with the most self time: where the relay spends its CPU (measured here, fixed elsewhere).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { SourceMap } from 'node:module';
import { join, relative } from 'node:path';
import { repoRoot } from '../test/support/build.js';
import { startStack, taskPath } from '../test/support/stack.js';
import { installEchoServer, measurePath, openProduct } from './transport.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface SelfTime {
  fn: string;
  where: string;
  ms: number;
  percent: number;
}

/** Bundle positions back to the TypeScript source, through the bundle's linked source map. */
function sourceLocator(): (url: string, line: number, column: number) => string {
  const maps = new Map<string, SourceMap | undefined>();
  return (url, line, column) => {
    if (!url.startsWith('file://')) return url ? `${url}:${line + 1}` : '';
    const path = new URL(url).pathname;
    if (!maps.has(path)) {
      try {
        maps.set(path, new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8'))));
      } catch {
        maps.set(path, undefined);
      }
    }
    const entry = maps.get(path)?.findEntry(line, column) as { originalSource?: string; originalLine?: number } | undefined;
    if (entry?.originalSource) {
      const source = entry.originalSource.startsWith('file://') ? new URL(entry.originalSource).pathname : join(path, '..', entry.originalSource);
      return `${relative(repoRoot, source)}:${(entry.originalLine ?? 0) + 1}`;
    }
    return `${relative(repoRoot, path)}:${line + 1}`;
  };
}

export function topSelfTime(profile: CpuProfile, top = 15): SelfTime[] {
  const locate = sourceLocator();
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, { fn: string; where: string; us: number }>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byNode.get(id);
    const delta = profile.timeDeltas[i] ?? 0;
    total += delta;
    if (!node) return;
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const fn = functionName || '(anonymous)';
    const where = locate(url, lineNumber, columnNumber);
    const key = `${fn}@${where}`;
    const entry = self.get(key) ?? { fn, where, us: 0 };
    entry.us += delta;
    self.set(key, entry);
  });
  return [...self.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map((e) => ({ fn: e.fn, where: e.where, ms: e.us / 1000, percent: (100 * e.us) / Math.max(1, total) }));
}

export async function profileProductPath(workspace: string, bin: string): Promise<{ top: SelfTime[]; profiledMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'kandev-bench-cpuprof-'));
  let stack;
  try {
    stack = await startStack({}, { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const backendPid = stack.process.pid as number;
  try {
    installEchoServer(bin);
    const task = await stack.createTask({ title: 'bench cpu-prof', workspace, env: { PATH: taskPath(bin) } });
    const { peer } = await openProduct(stack, (await stack.startSession(task.id)).id);
    await peer.initialize();
    await measurePath(peer);
    await peer.close();
  } finally {
    await stack.stop();
  }
  try {
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile') && name.split('.').includes(String(backendPid)));
    if (!file) throw new Error(`no CPU profile of the backend (pid ${backendPid}) in ${dir}: ${readdirSync(dir).join(', ')}`);
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    return { top: topSelfTime(profile), profiledMs: (profile.endTime - profile.startTime) / 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
