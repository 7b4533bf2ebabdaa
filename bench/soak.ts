/**
 * A day of use, compressed (`npm run bench -- soak`; BENCH_SOAK_MINUTES, default 30; BENCH_SOAK_SEED
 * to drive a run again; BENCH_SOAK_CHECKPOINT_S). Over the product's real processes (the bundled
 * backend, one agentctl per session) and real servers (typescript-language-server, pyright and
 * gopls on the demo workspace), plus the scriptable fake server as kotlin, the one language whose
 * server is crashed on purpose: tabs open, type, save, reload (the socket closes and the page comes
 * back with its lease hint), lose their network (no close at all, then the same resume) and close;
 * server crashes inside the restart budget; automatic installs of a "released" server (the fake one,
 * as rust-analyzer, from a release server on 127.0.0.1) in new sessions that are stopped afterwards;
 * searches. Every choice comes from one seeded generator; the seed is printed and reported.
 *
 * Every checkpoint records the backend's RSS and descriptors, each agentctl's, the leases, and from
 * /metrics Node's active resources and the clock's timers; the processes under the backend and any
 * zombie among them; then, through the heap probe (KANDEV_HEAP_PROBE_DIR, set for this run only),
 * the backend's and each agentctl's JS heap after a full GC. With BENCH_SOAK_HEAP_SNAPSHOTS=1, also
 * a heap snapshot at the warm-up checkpoint and at the last one, compared by constructor
 * (BENCH_SOAK_HEAP_DIR keeps them); off by default because writing a snapshot leaves the process's
 * RSS tens of MiB higher for the rest of the run, which would hide the RSS trend. At the end: every tab released, every process tree listed, the backend
 * stopped, nothing carrying the run's marker left anywhere, SQLite `integrity_check`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { HEAP_PROBE_ENV } from '@kandev/node-transport';
import { apiPath, lspSocketPath, METRICS_PATH } from '@kandev/protocol';
import Database from 'better-sqlite3';
import { startReleaseServer, type ReleaseServer } from '../test/fixtures/release-server/server.js';
import { authHeaders } from '../test/support/access.js';
import { fakeServerBundle, installFakeServer } from '../test/support/fakeServer.js';
import { copyDemoWorkspace, startStack, taskPath, type RunningStack } from '../test/support/stack.js';
import { checkpoint, type Checkpoint } from './soak/checkpoint.js';
import { heapGrowth, type ConstructorGrowth } from './soak/heapDiff.js';
import { commandOf, describeProcess, hasMarker, processesMarked, tree } from './soak/procs.js';
import { SeededRandom, soakSeed } from './soak/random.js';
import { SoakTab } from './soak/tab.js';

export { soakReport } from './soak/report.js';

/** The restart budget is 5 crashes in 3 minutes: one a minute or so stays inside it. */
const CRASH_GAP_MS = 60_000;
const CRASH_TARGET = 'KANDEV_SOAK_ROLE=crash-target';

interface Doc {
  language: 'typescript' | 'python' | 'go' | 'kotlin' | 'rust';
  file: string;
  comment: string;
  text: string;
}

interface SessionUnderTest {
  name: string;
  id: string;
  workspace: string;
  docs: Doc[];
  workspaceUri?: string;
}

interface OpenTab {
  session: SessionUnderTest;
  doc: Doc;
  tab: SoakTab;
  lease: string;
}

export interface SoakOptions {
  minutes?: number;
  checkpointMs?: number;
  seed?: number;
  log?: (line: string) => void;
  /** Heap snapshots at warm-up and at the end (BENCH_SOAK_HEAP_SNAPSHOTS=1). */
  heapSnapshots?: boolean;
  /**
   * Actions the run must contain at least once (the short run's random choices may miss them):
   * from a third of the run on, each one still owed is chosen as soon as it can be (a crash
   * opens the Kotlin tab first if none is open).
   */
  mustInclude?: Array<'crash' | 'reload' | 'cut'>;
}

export interface SoakResult {
  minutes: number;
  seed: number;
  actions: Record<string, number>;
  errors: string[];
  checkpoints: Checkpoint[];
  treeAtEnd: string[];
  leasesAfterRelease: number;
  leftOver: string[];
  integrity: string;
  /** Per process (backend, agentctl demo, agentctl kotlin): what grew between the two heap snapshots. */
  heapGrowth: { process: string; fromS: number; toS: number; top: ConstructorGrowth[] }[];
}

/** Every step is bounded: a step that hangs is an error of the run, never a hung run. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sinceStart = (started: number) => Math.round((Date.now() - started) / 1000);
const uriOf = (session: SessionUnderTest, doc: Doc) => `${session.workspaceUri}/${doc.file}`;

/** Opens a tab (a resume when `hint` names a lease that still waits), up to its document being open. */
async function openTab(stack: RunningStack, session: SessionUnderTest, doc: Doc, hint?: string): Promise<OpenTab & { resumed: boolean }> {
  const url = `${stack.url.replace('http', 'ws')}${lspSocketPath(session.id, doc.language, hint)}`;
  const tab = await SoakTab.open(url, { ...authHeaders(), Origin: stack.url });
  const gone = tab.closed.then((code) => Promise.reject(new Error(`${doc.language} socket closed ${code} before ready`)));
  gone.catch(() => undefined);
  const ready = await within(Promise.race([tab.status((m) => m.status === 'ready'), gone]), 180_000, `${doc.language} ready`);
  session.workspaceUri = ready.workspaceUri as string;
  const resumed = ready.resumed === true;
  if (!resumed) {
    const initialize = tab.request('initialize', { processId: null, rootUri: session.workspaceUri, capabilities: {} });
    await within(Promise.race([initialize, gone]), 120_000, `${doc.language} initialize`);
    tab.notify('initialized', {});
  }
  tab.notify('textDocument/didOpen', { textDocument: { uri: uriOf(session, doc), languageId: doc.language, version: tab.version, text: doc.text } });
  if (resumed) {
    tab.send({ control: 'attachment-ready' });
    await within(
      tab.status((m) => m.status === 'synchronized'),
      30_000,
      `${doc.language} synchronized`,
    );
  }
  return { session, doc, tab, lease: ready.lease as string, resumed };
}

export async function runSoak(options: SoakOptions = {}): Promise<SoakResult> {
  const minutes = options.minutes ?? Number(process.env.BENCH_SOAK_MINUTES ?? 30);
  const durationMs = minutes * 60_000;
  const checkpointMs = options.checkpointMs ?? Number(process.env.BENCH_SOAK_CHECKPOINT_S ?? (minutes >= 10 ? 180 : Math.max(15, (minutes * 60) / 4))) * 1000;
  const seed = options.seed ?? soakSeed();
  const heapSnapshots = options.heapSnapshots ?? process.env.BENCH_SOAK_HEAP_SNAPSHOTS === '1';
  const log = options.log ?? ((line: string) => console.log(line));
  log(`soak: seed ${seed} (BENCH_SOAK_SEED=${seed} drives the same choices), ${minutes} min, a checkpoint every ${checkpointMs / 1000} s`);
  const rng = new SeededRandom(seed);

  const dir = mkdtempSync(join(tmpdir(), 'kandev-bench-soak-'));
  // Its own KANDEV_HOME, kept past the stop for integrity_check (the stack removes only its own).
  const home = join(dir, 'home');
  mkdirSync(home, { recursive: true });
  // Inherited by everything the backend starts: what still carries it after the stop was left over.
  const marker = `KANDEV_SOAK_RUN=${seed}-${process.pid}-${Date.now()}`;
  const [markerName, markerValue] = marker.split('=') as [string, string];
  // Idle reclaim off: a task host with no lease for a while would otherwise be stopped between two
  // rounds of a compressed day, which a person's day does not do in minutes.
  // The heap probe, on for this run only: the backend and every agentctl it starts inherit it.
  const heapDir = process.env.BENCH_SOAK_HEAP_DIR || join(dir, 'heap');
  mkdirSync(heapDir, { recursive: true });
  const stack = await startStack({
    KANDEV_LSP_MAX_CONNECTIONS: '10',
    KANDEV_HOME: home,
    KANDEV_TASK_HOST_IDLE_MS: '0',
    [markerName]: markerValue,
    [HEAP_PROBE_ENV]: heapDir,
  });
  const backend = stack.process.pid as number;
  const actions: Record<string, number> = {};
  const errors: string[] = [];
  const checkpoints: Checkpoint[] = [];
  const count = (what: string) => (actions[what] = (actions[what] ?? 0) + 1);
  const started = Date.now();
  const deadline = started + durationMs;
  const release = await releasedRustAnalyzer();
  let sampler: NodeJS.Timeout | undefined;

  try {
    const demo = copyDemoWorkspace();
    const read = (file: string) => readFileSync(join(demo, file), 'utf8');
    // The real servers do not need the network; gopls must not try a module proxy.
    const demoTask = await stack.createTask({ title: 'soak demo', workspace: demo, env: { PATH: taskPath(), GOPROXY: 'off', GOFLAGS: '-mod=mod' } });
    const kotlinWorkspace = join(dir, 'kotlin');
    mkdirSync(kotlinWorkspace, { recursive: true });
    const kotlinText = 'fun main() = println("hi")\n';
    writeFileSync(join(kotlinWorkspace, 'Main.kt'), kotlinText);
    const kotlinBin = join(dir, 'kotlin-bin');
    installFakeServer(kotlinBin, 'kotlin-lsp');
    const kotlinTask = await stack.createTask({
      title: 'soak kotlin',
      workspace: kotlinWorkspace,
      env: { PATH: taskPath(kotlinBin), KANDEV_SOAK_ROLE: 'crash-target' },
    });
    const sessions: SessionUnderTest[] = [
      {
        name: 'demo',
        id: (await stack.startSession(demoTask.id)).id,
        workspace: demo,
        docs: [
          { language: 'typescript', file: 'src/main.ts', comment: '//', text: read('src/main.ts') },
          { language: 'python', file: 'app/main.py', comment: '#', text: read('app/main.py') },
          { language: 'go', file: 'main.go', comment: '//', text: read('main.go') },
        ],
      },
      {
        name: 'kotlin',
        id: (await stack.startSession(kotlinTask.id)).id,
        workspace: kotlinWorkspace,
        docs: [{ language: 'kotlin', file: 'Main.kt', comment: '//', text: kotlinText }],
      },
    ];
    const rustWorkspace = join(dir, 'rust');
    mkdirSync(rustWorkspace, { recursive: true });
    writeFileSync(join(rustWorkspace, 'main.rs'), 'fn main() {}\n');
    await stack.api(apiPath('settings', {}), { method: 'PUT', body: { lsp_auto_install_languages: ['rust'] } });
    const sessionOfWorkspace = (cwd: string) => (cwd === demo ? 'demo' : cwd === kotlinWorkspace ? 'kotlin' : cwd === rustWorkspace ? 'install' : cwd || '?');

    // Snapshots at the first checkpoint after warm-up (as the report reads it) and at the last one.
    let warmSnapshot = false;
    const record = async (last = false) => {
      const atS = Math.round((Date.now() - started) / 1000);
      const snapshot = heapSnapshots && (last || (!warmSnapshot && checkpoints.length > 0 && atS >= (minutes * 60) / 5));
      warmSnapshot ||= snapshot;
      const point = await checkpoint(stack.url, backend, atS, marker, sessionOfWorkspace, { dir: heapDir, seq: checkpoints.length, snapshot });
      checkpoints.push(point);
      log(
        `soak: checkpoint at ${point.atS} s: backend ${point.backendRssMiB.toFixed(1)} MiB, heap after GC ${point.backendHeap?.usedMiB.toFixed(1) ?? '-'} MiB, ${point.backendFds} fds, leases ${point.leases}, actions ${JSON.stringify(actions)}, errors ${errors.length}`,
      );
    };
    await record();
    // On its own timer: a long step (an install, a slow server start) does not delay a checkpoint.
    let recording = Promise.resolve();
    sampler = setInterval(() => {
      recording = recording.then(() => record().catch((err) => void errors.push(`checkpoint: ${String(err)}`)));
    }, checkpointMs);

    const tabs: OpenTab[] = [];
    const drop = (t: OpenTab) => tabs.splice(tabs.indexOf(t), 1);
    let lastCrash = 0;
    let nextInstall = started + durationMs * (0.05 + 0.1 * rng.next());
    let round = 0;
    const docs = sessions.flatMap((session) => session.docs.map((doc) => ({ session, doc })));

    while (Date.now() < deadline) {
      round++;
      let action = 'idle';
      try {
        if (Date.now() >= nextInstall) {
          action = 'install';
          await install(stack, rustWorkspace, release, dir, round);
          nextInstall = Date.now() + (durationMs / 5) * (0.7 + 0.6 * rng.next());
          count('install');
          continue;
        }
        const closedDocs = docs.filter(({ session, doc }) => !tabs.some((t) => t.session === session && t.doc === doc));
        const weights = {
          open: closedDocs.length ? 3 + 6 * closedDocs.length : 0,
          type: tabs.length ? 40 : 0,
          save: tabs.length ? 10 : 0,
          search: 8,
          reload: tabs.length ? 8 : 0,
          cut: tabs.length ? 6 : 0,
          close: tabs.length ? 5 : 0,
          crash: tabs.some((t) => t.doc.language === 'kotlin') && Date.now() - lastCrash > CRASH_GAP_MS ? 6 : 0,
        };
        const owed = Date.now() - started >= durationMs / 3 ? (options.mustInclude ?? []).find((a) => !actions[a]) : undefined;
        const kotlinClosed = closedDocs.filter(({ doc }) => doc.language === 'kotlin');
        const forced = owed && weights[owed] > 0 ? owed : owed === 'crash' && kotlinClosed.length ? 'open' : undefined;
        const choice = forced ?? rng.weighted(weights);
        action = choice;
        if (choice === 'open') {
          const { session, doc } = rng.pick(forced === 'open' ? kotlinClosed : closedDocs);
          tabs.push(await openTab(stack, session, doc));
        } else if (choice === 'search') {
          const session = rng.pick(sessions);
          const q = rng.pick(['main', 'greet', 'def ', 'func', 'import', 'println', 'util']);
          const res = await fetch(`${stack.url}${apiPath('sessionSearch', { id: session.id }, { q })}`, {
            headers: { ...authHeaders(), Origin: stack.url },
            signal: AbortSignal.timeout(30_000),
          });
          await res.text();
          if (!res.ok) throw new Error(`search ${res.status}`);
        } else {
          const t = rng.pick(choice === 'crash' ? tabs.filter((x) => x.doc.language === 'kotlin') : tabs);
          action = `${choice} ${t.doc.language}`;
          if (choice === 'type') await typeBurst(t, round, rng.between(5, 30));
          else if (choice === 'save') await save(stack, t, round);
          else if (choice === 'reload' || choice === 'cut') {
            drop(t);
            if (choice === 'reload') await within(t.tab.close(), 15_000, 'close');
            else {
              t.tab.cut();
              await sleep(rng.between(200, 3_000));
            }
            const back = await openTab(stack, t.session, t.doc, t.lease);
            tabs.push(back);
            // The page came back with its hint while the lease waited: it must get the same lease.
            if (!back.resumed || back.lease !== t.lease) throw new Error(`not resumed (lease ${t.lease} -> ${back.lease})`);
            count(`${choice}_resumed`);
          } else if (choice === 'close') {
            drop(t);
            t.tab.send({ control: 'release', reason: 'stop' });
            await within(t.tab.closed, 30_000, 'release');
          } else if (choice === 'crash') {
            await crash(backend, t);
            lastCrash = Date.now();
          }
        }
        count(choice);
      } catch (err) {
        errors.push(`${Math.round((Date.now() - started) / 1000)} s, ${action}: ${err instanceof Error ? err.message : String(err)}`);
        // A tab whose step failed is dropped as a network cut would drop it.
        for (const t of tabs.filter((x) => action.endsWith(x.doc.language))) {
          t.tab.cut();
          drop(t);
        }
      }
    }
    clearInterval(sampler);
    // Where a long run's time went (the short mode took 68 s in one run and 150 s in another).
    log(`soak: the last action (${actions.open ?? 0} opens, ${actions.install ?? 0} installs) ended at ${sinceStart(started)} s`);
    await recording;
    await record(true);
    for (const t of tabs.splice(0)) {
      t.tab.send({ control: 'release', reason: 'stop' });
      await within(t.tab.closed, 30_000, 'final release').catch((err) => errors.push(String(err)));
    }
    log(`soak: the last checkpoint taken and every tab released at ${sinceStart(started)} s`);
  } catch (err) {
    clearInterval(sampler);
    errors.push(`setup: ${err instanceof Error ? err.message : String(err)}`);
  }
  const leasesAfterRelease = await leasesNow(stack);
  const everything = tree(backend);
  const treeAtEnd = everything.map(describeProcess);
  await stack.stop();
  log(`soak: the backend stopped at ${sinceStart(started)} s`);
  await release.server.close();
  // The backend waited for its task hosts; give what they reaped a moment to be gone from /proc.
  let leftOver: number[] = [];
  for (let i = 0; i < 20; i++) {
    leftOver = [...new Set([...everything.filter((p) => commandOf(p) !== ''), ...processesMarked(marker)])];
    if (leftOver.length === 0) break;
    await sleep(500);
  }
  const growth = snapshotGrowth(checkpoints, errors);
  const db = new Database(join(home, 'kandev.db'), { readonly: true });
  const integrity = String(db.pragma('integrity_check', { simple: true }));
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return { minutes, seed, actions, errors, checkpoints, treeAtEnd, leasesAfterRelease, leftOver: leftOver.map(describeProcess), integrity, heapGrowth: growth };
}

/** The backend's and each long session's agentctl's snapshots, first against last, by constructor. */
function snapshotGrowth(checkpoints: Checkpoint[], errors: string[]): SoakResult['heapGrowth'] {
  const taken = checkpoints.filter((c) => c.backendHeap?.snapshot !== undefined);
  const [first, last] = [taken[0], taken.at(-1)];
  if (!first || !last || first === last) return [];
  const pairs: [string, string | undefined, string | undefined][] = [
    ['backend', first.backendHeap?.snapshot, last.backendHeap?.snapshot],
    ...['demo', 'kotlin'].map((name): [string, string | undefined, string | undefined] => [
      `agentctl ${name}`,
      first.agentctls.find((a) => a.name === name)?.heap?.snapshot,
      last.agentctls.find((a) => a.name === name)?.heap?.snapshot,
    ]),
  ];
  const out: SoakResult['heapGrowth'] = [];
  for (const [name, before, after] of pairs) {
    if (!before || !after) {
      errors.push(`heap snapshots: none of ${name} at ${first.atS} s and ${last.atS} s`);
      continue;
    }
    out.push({ process: name, fromS: first.atS, toS: last.atS, top: heapGrowth(before, after) });
  }
  return out;
}

async function leasesNow(stack: RunningStack): Promise<number> {
  // A release is acknowledged before its slot is freed at the broker: wait for the count to settle.
  let leases = NaN;
  for (let i = 0; i < 30; i++) {
    const text = await (await fetch(`${stack.url}${METRICS_PATH}`, { headers: authHeaders(), signal: AbortSignal.timeout(15_000) })).text();
    leases = Number(/^kandev_lsp_leases ([0-9.]+)$/m.exec(text)?.[1] ?? NaN);
    if (leases === 0) break;
    await sleep(1_000);
  }
  return leases;
}

/** Typing: a burst of full-text changes, then a hover whose answer comes after all of them. */
async function typeBurst(t: OpenTab, round: number, keys: number): Promise<void> {
  const uri = uriOf(t.session, t.doc);
  for (let i = 0; i < keys; i++) {
    t.tab.notify('textDocument/didChange', {
      textDocument: { uri, version: ++t.tab.version },
      contentChanges: [{ text: `${t.doc.text}${t.doc.comment} soak ${round}.${i}\n` }],
    });
  }
  await within(t.tab.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 1 } }), 60_000, 'hover');
}

/** Save: the editor's text written through the files API against the version it read. */
async function save(stack: RunningStack, t: OpenTab, round: number): Promise<void> {
  const path = apiPath('sessionFile', { id: t.session.id }, { path: t.doc.file });
  const headers = { ...authHeaders(), Origin: stack.url };
  const current = await fetch(`${stack.url}${path}`, { headers, signal: AbortSignal.timeout(30_000) });
  if (!current.ok) throw new Error(`read before save ${current.status}`);
  const { version } = (await current.json()) as { version: string };
  const res = await fetch(`${stack.url}${path}`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ content: `${t.doc.text}${t.doc.comment} saved ${round}\n`, baseVersion: version }),
    signal: AbortSignal.timeout(30_000),
  });
  await res.text();
  if (!res.ok) throw new Error(`save ${res.status}`);
}

/** A server crash inside the budget: the lease restarts the server on the same socket. */
async function crash(backend: number, t: OpenTab): Promise<void> {
  const server = tree(backend).find((p) => commandOf(p).includes('fake-lsp-server') && hasMarker(p, CRASH_TARGET));
  if (server === undefined) throw new Error('no kotlin server to crash');
  const restarting = t.tab.next((m) => m.status === 'restarting');
  const ready = t.tab.next((m) => m.status === 'ready');
  process.kill(server, 'SIGKILL');
  await within(restarting, 30_000, 'restarting');
  const frame = await within(ready, 60_000, 'ready after the crash');
  if (frame.resumed !== true) throw new Error('the restarted server was not resumed on the lease');
  const synchronized = t.tab.next((m) => m.status === 'synchronized');
  t.tab.notify('textDocument/didOpen', { textDocument: { uri: uriOf(t.session, t.doc), languageId: 'kotlin', version: ++t.tab.version, text: t.doc.text } });
  t.tab.send({ control: 'attachment-ready' });
  await within(synchronized, 30_000, 'synchronized after the crash');
}

interface Release {
  server: ReleaseServer;
  /** Served as the release's file name, per the host's CPU. */
  name: string;
}

/** The fake server "released" as rust-analyzer: a gzip launcher with its sha256, on 127.0.0.1. */
async function releasedRustAnalyzer(): Promise<Release> {
  installFakeServer(mkdtempSync(join(tmpdir(), 'kandev-soak-fake-')), 'kotlin-lsp'); // builds the bundle if needed
  const binary = gzipSync(Buffer.from(`#!/bin/sh\nexec "${process.execPath}" "${fakeServerBundle}" "$@"\n`));
  const name = `rust-analyzer-${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-unknown-linux-gnu.gz`;
  const server = await startReleaseServer({ [name]: binary, [`${name}.sha256`]: `${createHash('sha256').update(binary).digest('hex')}  ${name}\n` });
  return { server, name };
}

/**
 * An install: a new session whose HOME has no rust-analyzer opens a rust tab, agentctl downloads,
 * verifies and publishes the release, the server answers, the tab closes and the session stops.
 */
async function install(stack: RunningStack, workspace: string, release: Release, dir: string, round: number): Promise<void> {
  const home = join(dir, `install-home-${round}`);
  mkdirSync(home, { recursive: true });
  // No rust-analyzer of the machine's (a rustup proxy) may be found first: the install is the point.
  const path = taskPath()
    .split(delimiter)
    .filter((entry) => !existsSync(join(entry, 'rust-analyzer')))
    .join(delimiter);
  const task = await stack.createTask({
    title: `soak install ${round}`,
    workspace,
    env: { PATH: path, HOME: home, KANDEV_RUST_ANALYZER_BASE_URL: release.server.baseUrl },
  });
  const session = await stack.startSession(task.id);
  try {
    const under: SessionUnderTest = { name: 'install', id: session.id, workspace, docs: [] };
    const opened = await openTab(stack, under, { language: 'rust', file: 'main.rs', comment: '//', text: 'fn main() {}\n' });
    const statuses = opened.tab.statuses.map((m) => m.status).filter((s) => typeof s === 'string');
    if (!statuses.includes('installed')) throw new Error(`no install seen: ${statuses.join(', ')}`);
    await within(
      opened.tab.request('textDocument/hover', { textDocument: { uri: uriOf(under, opened.doc) }, position: { line: 0, character: 1 } }),
      60_000,
      'hover',
    );
    opened.tab.send({ control: 'release', reason: 'stop' });
    await within(opened.tab.closed, 30_000, 'release');
  } finally {
    await stack.api(apiPath('sessionStop', { id: session.id }), { method: 'POST', body: {} });
    rmSync(home, { recursive: true, force: true });
  }
}
