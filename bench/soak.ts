/**
 * A day of use, compressed (`npm run bench -- soak`, BENCH_SOAK_MINUTES, default 30): tabs that
 * open, type, save, reload and close across sessions and languages (the real
 * typescript-language-server on the demo workspace, the scriptable fake server as kotlin in two
 * more sessions), network cuts (a socket dropped without a close), server crashes within the
 * crash budget, and searches, over the product's real processes (the bundled backend, one agentctl
 * per session). Installs are not driven here: they need the npm registry on every round.
 *
 * Every SAMPLE_MS it records the backend's and every agentctl's RSS and open file descriptors
 * (/proc), and from /metrics the leases (and the backend's active handles and timers where
 * /metrics exposes Node's own gauges; it does not today, so those columns read "-"). At the end: every tab released, every process tree under the backend listed, the
 * backend stopped, nothing of it left running, and SQLite `integrity_check` on its database. The
 * verdict "flat" compares the last quarter of the samples with the second (after warm-up).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { authHeaders } from '../test/support/access.js';
import { installFakeServer, writeScript } from '../test/support/fakeServer.js';
import { MiB, rssBytes } from '../test/support/procStatus.js';
import { copyDemoWorkspace, startStack, taskPath, type RunningStack } from '../test/support/stack.js';
import { WsLspClient } from './wsLspClient.js';

const SAMPLE_MS = Number(process.env.BENCH_SOAK_SAMPLE_MS ?? 10_000);
/** The crash budget is 5 in 3 minutes: one crash a minute stays well inside it. */
const CRASH_EVERY_MS = 60_000;

interface Sample {
  atS: number;
  backendRssMiB: number;
  backendFds: number;
  agentctlRssMiB: number;
  agentctlFds: number;
  leases: number;
  handles: number;
  timers: number;
}

export interface SoakResult {
  minutes: number;
  actions: Record<string, number>;
  errors: string[];
  samples: Sample[];
  treeAtEnd: string[];
  leftOver: string[];
  integrity: string;
  flat: Record<string, { warm: number; end: number; growth: number }>;
}

interface Tab {
  session: SessionUnderTest;
  client: WsLspClient;
  lease: string;
  version: number;
}

interface SessionUnderTest {
  id: string;
  language: 'typescript' | 'kotlin';
  file: string;
  text: string;
  workspaceUri?: string;
}

const children = (pid: number): number[] =>
  readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);

const tree = (pid: number): number[] => children(pid).flatMap((c) => [c, ...tree(c)]);
const commandOf = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim().slice(0, 160);
  } catch {
    return '';
  }
};
const fds = (pid: number): number => {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
};
/** Every step is bounded: a step that hangs is an error of the run, never a hung run. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const metric = (text: string, name: string): number => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(text)?.[1] ?? NaN);

async function openTab(stack: RunningStack, session: SessionUnderTest, lease?: string): Promise<Tab> {
  const url = `${stack.url.replace('http', 'ws')}/lsp/${session.id}?language=${session.language}${lease ? `&lease=${lease}` : ''}`;
  const client = await WsLspClient.open(url, { ...authHeaders(), Origin: stack.url });
  const frame = await within(
    client.waitFor((m) => m.status === 'ready'),
    120_000,
    'ready',
  );
  session.workspaceUri = frame.workspaceUri as string;
  const uri = `${session.workspaceUri}/${session.file}`;
  if (!frame.resumed) {
    await within(client.request('initialize', { processId: null, rootUri: session.workspaceUri, capabilities: {} }), 120_000, 'initialize');
    client.send({ jsonrpc: '2.0', method: 'initialized', params: {} });
  }
  client.send({
    jsonrpc: '2.0',
    method: 'textDocument/didOpen',
    params: { textDocument: { uri, languageId: session.language, version: 1, text: session.text } },
  });
  if (frame.resumed) {
    client.send({ control: 'attachment-ready' });
    await within(
      client.waitFor((m) => m.status === 'synchronized'),
      30_000,
      'synchronized',
    );
  }
  return { session, client, lease: frame.lease as string, version: 1 };
}

async function fakeSession(stack: RunningStack, dir: string, name: string): Promise<SessionUnderTest> {
  const workspace = join(dir, name);
  mkdirSync(workspace, { recursive: true });
  const text = 'fun main() = println("hi")\n';
  writeFileSync(join(workspace, 'Main.kt'), text);
  const bin = join(dir, `${name}-bin`);
  installFakeServer(bin, 'kotlin-lsp');
  const task = await stack.createTask({
    title: name,
    workspace,
    env: { PATH: taskPath(bin), FAKE_LSP_SCRIPT: writeScript(dir, {}), FAKE_LSP_LOG: join(dir, `${name}.jsonl`) },
  });
  return { id: (await stack.startSession(task.id)).id, language: 'kotlin', file: 'Main.kt', text };
}

export async function runSoak(minutes = Number(process.env.BENCH_SOAK_MINUTES ?? 30)): Promise<SoakResult> {
  const dir = mkdtempSync(join(tmpdir(), 'kandev-bench-soak-'));
  // Its own KANDEV_HOME, kept past the stop for integrity_check (the stack removes only its own).
  const home = join(dir, 'home');
  mkdirSync(home, { recursive: true });
  // Idle reclaim off: a task host with no lease for a while would otherwise be stopped between two
  // rounds of a compressed day, which a person's day does not do in minutes.
  const stack = await startStack({ KANDEV_LSP_MAX_CONNECTIONS: '8', KANDEV_HOME: home, KANDEV_TASK_HOST_IDLE_MS: '0' });
  const backend = stack.process.pid as number;
  const actions: Record<string, number> = {};
  const errors: string[] = [];
  const samples: Sample[] = [];
  const count = (what: string) => (actions[what] = (actions[what] ?? 0) + 1);
  const started = Date.now();
  const deadline = started + minutes * 60_000;

  const demo = copyDemoWorkspace();
  const tsTask = await stack.createTask({ title: 'soak typescript', workspace: demo });
  const sessions: SessionUnderTest[] = [
    { id: (await stack.startSession(tsTask.id)).id, language: 'typescript', file: 'src/main.ts', text: readFileSync(join(demo, 'src/main.ts'), 'utf8') },
    await fakeSession(stack, dir, 'kotlin-a'),
    await fakeSession(stack, dir, 'kotlin-b'),
  ];

  const sample = async () => {
    const agentctls = children(backend).filter((p) => commandOf(p).includes('agentctl'));
    const text = await (await fetch(`${stack.url}/metrics`, { headers: authHeaders(), signal: AbortSignal.timeout(10_000) })).text();
    samples.push({
      atS: Math.round((Date.now() - started) / 1000),
      backendRssMiB: (rssBytes(backend) ?? 0) / MiB,
      backendFds: fds(backend),
      agentctlRssMiB: agentctls.reduce((sum, p) => sum + (rssBytes(p) ?? 0), 0) / MiB,
      agentctlFds: agentctls.reduce((sum, p) => sum + fds(p), 0),
      leases: metric(text, 'kandev_lsp_leases'),
      handles: metric(text, 'nodejs_active_handles_total'),
      timers: metric(text, 'nodejs_active_timers_total') || metric(text, 'nodejs_active_handles') || NaN,
    });
  };
  await sample();
  const sampler = setInterval(() => void sample().catch((err) => errors.push(`sample: ${String(err)}`)), SAMPLE_MS);

  const tabs: Tab[] = [];
  const hints = new Map<string, string>();
  let lastCrash = Date.now();
  let round = 0;
  try {
    while (Date.now() < deadline) {
      round++;
      const session = sessions[round % sessions.length] as SessionUnderTest;
      const step = round % 9;
      try {
        const mine = tabs.filter((t) => t.session === session);
        if (mine.length === 0 || step === 0) {
          // Open a tab (a reload's second half, with the hint, when there is one).
          tabs.push(await openTab(stack, session, hints.get(session.id)));
          count('open');
          continue;
        }
        const tab = mine[0] as Tab;
        const uri = `${session.workspaceUri}/${session.file}`;
        if (step <= 3) {
          // Typing: a burst of changes, then a request whose answer follows them.
          for (let i = 0; i < 20; i++) {
            tab.version++;
            tab.client.send({
              jsonrpc: '2.0',
              method: 'textDocument/didChange',
              params: { textDocument: { uri, version: tab.version }, contentChanges: [{ text: `${session.text}// ${round}.${i}\n` }] },
            });
          }
          await within(tab.client.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 1 } }), 60_000, 'hover');
          count('type');
        } else if (step === 4) {
          const res = await fetch(`${stack.url}/api/sessions/${session.id}/file?path=${encodeURIComponent(session.file)}`, {
            method: 'PUT',
            headers: { ...authHeaders(), 'content-type': 'application/json', Origin: stack.url },
            body: JSON.stringify({ content: session.text }),
            signal: AbortSignal.timeout(30_000),
          });
          if (!res.ok) errors.push(`save ${res.status}`);
          count('save');
        } else if (step === 5) {
          const res = await fetch(`${stack.url}/api/sessions/${session.id}/search?q=main`, {
            headers: { ...authHeaders(), Origin: stack.url },
            signal: AbortSignal.timeout(30_000),
          });
          await res.text();
          count('search');
        } else if (step === 6) {
          // Reload: the socket closes, the page comes back with its hint.
          hints.set(session.id, tab.lease);
          await within(tab.client.close(), 15_000, 'close');
          tabs.splice(tabs.indexOf(tab), 1);
          tabs.push(await openTab(stack, session, tab.lease));
          count('reload');
        } else if (step === 7) {
          // Network cut: the connection drops without a close; the next open resumes by hint.
          hints.set(session.id, tab.lease);
          tab.client.socket.terminate();
          tabs.splice(tabs.indexOf(tab), 1);
          count('network_cut');
        } else if (session.language === 'kotlin' && Date.now() - lastCrash > CRASH_EVERY_MS) {
          // A crash inside the budget: the lease restarts its server on the same socket.
          const pid = Number(
            readFileSync(join(dir, `${session === sessions[1] ? 'kotlin-a' : 'kotlin-b'}.jsonl`), 'utf8')
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l).pid)
              .pop(),
          );
          const restarted = tab.client.waitFor((m) => m.status === 'ready' && m.resumed === true && tab.client.received.some((r) => r.status === 'restarting'));
          if (!(Number.isInteger(pid) && pid > 0) || !alive(pid)) {
            count('crash_skipped');
            continue;
          }
          process.kill(pid, 'SIGKILL');
          await within(restarted, 60_000, 'restart');
          tab.client.send({
            jsonrpc: '2.0',
            method: 'textDocument/didOpen',
            params: { textDocument: { uri, languageId: session.language, version: ++tab.version, text: session.text } },
          });
          tab.client.send({ control: 'attachment-ready' });
          lastCrash = Date.now();
          count('crash');
        } else {
          // Close the tab: the editor's idle release.
          tab.client.send({ control: 'release', reason: 'stop' });
          await within(tab.client.closed, 30_000, 'release');
          tabs.splice(tabs.indexOf(tab), 1);
          hints.delete(session.id);
          count('close');
        }
      } catch (err) {
        errors.push(`${round}: ${String(err)}`);
        // A tab whose step failed is dropped as a network cut would drop it.
        for (const tab of tabs.filter((t) => t.session === session)) {
          tab.client.socket.terminate();
          tabs.splice(tabs.indexOf(tab), 1);
        }
      }
    }
  } finally {
    clearInterval(sampler);
  }
  await sample();
  for (const tab of tabs) {
    tab.client.send({ control: 'release', reason: 'stop' });
    await Promise.race([tab.client.closed, new Promise((r) => setTimeout(r, 15_000))]);
  }
  const treeAtEnd = tree(backend).map((p) => `${p} ${commandOf(p)}`);
  const everything = tree(backend);
  await stack.stop();
  await new Promise((r) => setTimeout(r, 2_000));
  const leftOver = everything.filter((p) => commandOf(p) !== '').map((p) => `${p} ${commandOf(p)}`);
  const db = new Database(join(home, 'kandev.db'), { readonly: true });
  const integrity = String(db.pragma('integrity_check', { simple: true }));
  db.close();

  const quarter = Math.max(1, Math.floor(samples.length / 4));
  const mean = (xs: Sample[], key: keyof Sample) => xs.reduce((s, x) => s + (x[key] as number), 0) / Math.max(1, xs.length);
  const flat: SoakResult['flat'] = {};
  for (const key of ['backendRssMiB', 'backendFds', 'agentctlRssMiB', 'agentctlFds', 'leases', 'handles', 'timers'] as const) {
    const warm = mean(samples.slice(quarter, 2 * quarter), key);
    const end = mean(samples.slice(-quarter), key);
    flat[key] = { warm, end, growth: end - warm };
  }
  return { minutes, actions, errors, samples, treeAtEnd, leftOver, integrity, flat };
}

export function soakReport(r: SoakResult): string {
  const f = (n: number) => (Number.isNaN(n) ? '-' : n.toFixed(1));
  const lines = [
    `Soak: ${r.minutes} min; actions ${Object.entries(r.actions)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; errors ${r.errors.length}`,
    '',
    '| t (s) | backend RSS MiB | backend fds | agentctl RSS MiB (all) | agentctl fds | leases | handles | timers |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...r.samples.map(
      (s) => `| ${s.atS} | ${f(s.backendRssMiB)} | ${s.backendFds} | ${f(s.agentctlRssMiB)} | ${s.agentctlFds} | ${s.leases} | ${s.handles} | ${s.timers} |`,
    ),
    '',
    '| figure | after warm-up (2nd quarter) | last quarter | growth |',
    '| --- | ---: | ---: | ---: |',
    ...Object.entries(r.flat).map(([k, v]) => `| ${k} | ${f(v.warm)} | ${f(v.end)} | ${f(v.growth)} |`),
    '',
    `Process trees at the end (after every tab released): ${r.treeAtEnd.length ? '' : 'none'}`,
    ...r.treeAtEnd.map((l) => `- ${l}`),
    `Left over after the backend stopped: ${r.leftOver.length ? r.leftOver.join('; ') : 'nothing'}`,
    `SQLite integrity_check: ${r.integrity}`,
    ...(r.errors.length ? ['', 'Errors:', ...r.errors.slice(0, 20).map((e) => `- ${e}`)] : []),
  ];
  return lines.join('\n');
}
