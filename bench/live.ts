/**
 * The live workspace (`npm run bench -- live`): how soon a write on disk reaches a language server
 * (the fake server's own receive time, from its log) and a page's events stream, through the whole
 * product (backend process, agentctl bundle, native watcher); a burst of 10,000 files (frames sent,
 * time until the page's stream is quiet, notifications the server got, agentctl's peak RSS); and
 * agentctl's memory watching a 100,000-file workspace with a node_modules inside.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseListeningLine } from '@kandev/protocol';
import { authHeaders } from '../test/support/access.js';
import { repoRoot } from '../test/support/build.js';
import { EventsClient } from '../test/support/eventsClient.js';
import { installFakeServer, writeScript } from '../test/support/fakeServer.js';
import { startStack, taskPath } from '../test/support/stack.js';
import { summarize, table, type LatencySummary } from './stats.js';
import { WsLspClient } from './wsLspClient.js';

const ROUNDS = Number(process.env.BENCH_LIVE_ROUNDS ?? 40);
const BURST = Number(process.env.BENCH_LIVE_BURST ?? 10_000);
const BIG_TREE = Number(process.env.BENCH_LIVE_TREE ?? 100_000);
/** The page's stream counts as settled once it has been quiet this long. */
const QUIET_MS = 1_000;

export interface LiveFigures {
  toServer: LatencySummary;
  toPage: LatencySummary;
  burst: {
    files: number;
    writeMs: number;
    framesToPage: number;
    overflowFrames: number;
    settleMs: number;
    serverNotifications: number;
    serverChanges: number;
    serverDistinctFiles: number;
    agentctlPeakRssMiB: number;
    agentctlRssBeforeMiB: number;
  };
  bigTree: { files: number; folders: number; watchStartMs: number; rssMiB: number; emptyRssMiB: number };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function status(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** The agentctl the backend started for `workspace` (its child, found by its environment). */
function agentctlOf(backendPid: number, workspace: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== backendPid) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`AGENTCTL_WORKSPACE=${workspace}`)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error('agentctl not found');
}

/** Lines of the fake server's log naming didChangeWatchedFiles, with their receive time. */
function notifications(log: string): Array<{ at: number; uris: string[] }> {
  let text = '';
  try {
    text = readFileSync(log, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => l.includes('workspace/didChangeWatchedFiles'))
    .map((l) => JSON.parse(l) as { at: number; message: { params: { changes: Array<{ uri: string }> } } })
    .map((l) => ({ at: l.at, uris: l.message.params.changes.map((c) => c.uri) }));
}

export async function liveBench(): Promise<{ figures: LiveFigures; text: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'kandev-bench-live-'));
  const stack = await startStack();
  try {
    const workspace = join(dir, 'workspace');
    mkdirSync(join(workspace, 'src'), { recursive: true });
    writeFileSync(join(workspace, 'src/Main.kt'), 'fun main() {}\n');
    const bin = join(dir, 'bin');
    installFakeServer(bin, 'kotlin-lsp');
    const log = join(dir, 'server.jsonl');
    const registration = { id: 'w', method: 'workspace/didChangeWatchedFiles', registerOptions: { watchers: [{ globPattern: '**/*.kt' }] } };
    const script = writeScript(dir, { rules: { initialized: [{ request: 'client/registerCapability', params: { registrations: [registration] } }] } });
    const task = await stack.createTask({ title: 'live bench', workspace, env: { PATH: taskPath(bin), FAKE_LSP_SCRIPT: script, FAKE_LSP_LOG: log } });
    const session = await stack.startSession(task.id);
    const agentctl = agentctlOf(stack.process.pid as number, workspace);

    const lsp = await WsLspClient.open(`${stack.url.replace(/^http/, 'ws')}/lsp/${session.id}?language=kotlin`, { Origin: stack.url, ...authHeaders() });
    const ready = await lsp.waitFor((m) => m.status === 'ready');
    await lsp.request('initialize', {
      processId: null,
      rootUri: ready.workspaceUri,
      capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
    });
    lsp.send({ jsonrpc: '2.0', method: 'initialized', params: {} });
    const register = await lsp.waitFor((m) => m.method === 'client/registerCapability');
    lsp.send({ jsonrpc: '2.0', id: register.id, result: null });
    const page = new EventsClient(stack.url, session.id);
    await page.waitFor((f) => f.type === 'git');
    await sleep(500);

    // Write -> server notification and -> page frame, one write at a time.
    const toServer: number[] = [];
    const toPage: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const name = `src/File${i}.kt`;
      const uri = `${ready.workspaceUri}/${name}`;
      const framesBefore = page.frames.length;
      const t0 = Date.now();
      writeFileSync(join(workspace, name), `class File${i}\n`);
      const frame = page.waitFor((f) => page.frames.indexOf(f) >= framesBefore && f.type === 'files' && f.changes.some((c) => c.path === name));
      await frame;
      toPage.push(Date.now() - t0);
      let heard: number | undefined;
      while (heard === undefined) {
        heard = notifications(log).find((n) => n.uris.includes(uri))?.at;
        if (heard === undefined) await sleep(2);
      }
      toServer.push(heard - t0);
      await sleep(100);
    }

    // A burst: BURST new files as fast as this process writes them.
    const rssBefore = status(agentctl, 'VmRSS');
    const framesBefore = page.frames.length;
    const notificationsBefore = notifications(log).length;
    // Written by another process, as an agent would, so this one keeps reading the page's stream.
    const start = Date.now();
    await writeBurst(join(workspace, 'burst'), BURST);
    const writeMs = Date.now() - start;
    let lastCount = -1;
    let lastChange = Date.now();
    while (Date.now() - lastChange < QUIET_MS) {
      if (page.frames.length !== lastCount) {
        lastCount = page.frames.length;
        lastChange = Date.now();
      }
      await sleep(10);
    }
    const burstFrames = page.frames.slice(framesBefore).filter((f) => f.type === 'files' || f.type === 'overflow');
    const lastFrameAt = lastChange;
    // The server's log is written as it reads: wait until it too has been quiet a while.
    let logged = -1;
    for (let quietSince = Date.now(); Date.now() - quietSince < QUIET_MS; await sleep(50)) {
      const now = notifications(log).length;
      if (now !== logged) [logged, quietSince] = [now, Date.now()];
    }
    const burstNotifications = notifications(log).slice(notificationsBefore);
    const burst = {
      files: BURST,
      writeMs,
      framesToPage: burstFrames.length,
      overflowFrames: burstFrames.filter((f) => f.type === 'overflow').length,
      settleMs: lastFrameAt - start - writeMs,
      serverNotifications: burstNotifications.length,
      serverChanges: burstNotifications.reduce((n, l) => n + l.uris.length, 0),
      serverDistinctFiles: new Set(burstNotifications.flatMap((l) => l.uris)).size,
      agentctlPeakRssMiB: status(agentctl, 'VmHWM'),
      agentctlRssBeforeMiB: rssBefore,
    };
    page.close();
    await lsp.close();

    const bigTree = await bigTreeMemory(dir);
    const figures: LiveFigures = { toServer: summarize(toServer), toPage: summarize(toPage), burst, bigTree };
    return { figures, text: render(figures) };
  } finally {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `count` files in folders of 500 under `dir`, written by a child process as fast as it can. */
function writeBurst(dir: string, count: number): Promise<void> {
  const code = `const fs=require('fs'),p=require('path');const d=process.argv[1],n=Number(process.argv[2]);fs.mkdirSync(d);for(let i=0;i<n;i++){const f=p.join(d,'d'+Math.floor(i/500));if(i%500===0)fs.mkdirSync(f);fs.writeFileSync(p.join(f,'F'+i+'.kt'),'class F'+i+'\\n');}`;
  const child = spawn(process.execPath, ['-e', code, dir, String(count)], { stdio: 'ignore' });
  return new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`burst writer exited ${code}`)))));
}

/** agentctl alone on a workspace of BIG_TREE files (most under node_modules) against an empty one. */
async function bigTreeMemory(dir: string): Promise<LiveFigures['bigTree']> {
  const big = join(dir, 'big');
  let folders = 0;
  const perFolder = 50;
  for (let i = 0; i < BIG_TREE; i++) {
    if (i % perFolder === 0) {
      const inModules = i < BIG_TREE * 0.9;
      mkdirSync(join(big, inModules ? `node_modules/pkg${Math.floor(i / 1000)}/lib${Math.floor(i / perFolder)}` : `src/m${Math.floor(i / perFolder)}`), {
        recursive: true,
      });
      folders++;
    }
  }
  for (let i = 0; i < BIG_TREE; i++) {
    const inModules = i < BIG_TREE * 0.9;
    const folder = inModules ? `node_modules/pkg${Math.floor(i / 1000)}/lib${Math.floor(i / perFolder)}` : `src/m${Math.floor(i / perFolder)}`;
    writeFileSync(join(big, folder, `f${i}.js`), 'module.exports = 1;\n');
  }
  const emptyDir = join(dir, 'empty');
  mkdirSync(emptyDir);
  const empty = await agentctlAlone(emptyDir);
  const loaded = await agentctlAlone(big);
  return { files: BIG_TREE, folders, watchStartMs: loaded.startMs, rssMiB: loaded.rssMiB, emptyRssMiB: empty.rssMiB };
}

/** agentctl from the bundle on `workspace`: time to listen (the watch is up by then) and its RSS a moment later. */
async function agentctlAlone(workspace: string): Promise<{ startMs: number; rssMiB: number }> {
  const start = Date.now();
  const child = spawn(process.execPath, [join(repoRoot, 'apps/agentctl/dist/agentctl.mjs')], {
    env: { PATH: process.env.PATH, AGENTCTL_TOKEN: 'bench', AGENTCTL_WORKSPACE: workspace, AGENTCTL_REPOS: '[]' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise<void>((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      if (buffer.split('\n').some((line) => parseListeningLine(line) !== undefined)) resolve();
    });
    child.once('exit', () => reject(new Error('agentctl exited')));
  });
  const startMs = Date.now() - start;
  await sleep(1_000);
  const rssMiB = status(child.pid as number, 'VmRSS');
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return { startMs, rssMiB };
}

function render(f: LiveFigures): string {
  const ms = (s: LatencySummary) => [s.p50.toFixed(0), s.p95.toFixed(0)];
  return [
    table(
      ['disk write ->', 'p50 ms', 'p95 ms'],
      [
        ['server notification (fake server, received)', ...ms(f.toServer)],
        ['events frame at the page', ...ms(f.toPage)],
      ],
    ),
    '',
    table(
      ['burst', 'value'],
      [
        ['files written (in ms)', `${f.burst.files} (${f.burst.writeMs})`],
        ['frames to the page (of them overflow)', `${f.burst.framesToPage} (${f.burst.overflowFrames})`],
        ['last frame at the page after the last write, ms', String(f.burst.settleMs)],
        ['server notifications (changes, distinct files)', `${f.burst.serverNotifications} (${f.burst.serverChanges}, ${f.burst.serverDistinctFiles})`],
        ['agentctl RSS before, MiB', f.burst.agentctlRssBeforeMiB.toFixed(1)],
        ['agentctl peak RSS (VmHWM), MiB', f.burst.agentctlPeakRssMiB.toFixed(1)],
      ],
    ),
    '',
    table(
      ['watched workspace', 'files', 'folders', 'listening after ms', 'agentctl RSS MiB'],
      [
        ['empty', '0', '0', '-', f.bigTree.emptyRssMiB.toFixed(1)],
        ['node_modules inside', String(f.bigTree.files), String(f.bigTree.folders), String(f.bigTree.watchStartMs), f.bigTree.rssMiB.toFixed(1)],
      ],
    ),
  ].join('\n');
}
