/**
 * The transport peer comparison: the same stub server (bench/echoServer.mjs) reached four ways,
 * round trips of `bench/echo` at four sizes and a notification flood, plus what only the product
 * has (reattach vs cold start, memory per lease, concurrent leases, many open documents).
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningStack } from '../test/support/stack.js';
import { startPassThroughProxy } from './passThroughProxy.js';
import { BenchPeer, StdioPeer, WsPeer } from './peers.js';
import { summarize, type LatencySummary } from './stats.js';
import { authHeaders } from '../test/support/access.js';

export const ECHO_SIZES = [
  { label: '200 B', bytes: 200, samples: 300 },
  { label: '10 KB', bytes: 10 * 1024, samples: 200 },
  { label: '100 KB', bytes: 100 * 1024, samples: 60 },
  { label: '1 MB', bytes: 1024 * 1024, samples: 20 },
] as const;
export const FLOOD = { count: 20_000, size: 200 };

const echoServer = join(import.meta.dirname, 'echoServer.mjs');

/** The stub server as a binary named like a catalog server, so agentctl launches it like one. */
export function installEchoServer(binDir: string, name = 'kotlin-lsp'): string {
  mkdirSync(binDir, { recursive: true });
  const shim = join(binDir, name);
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${echoServer}" "$@"\n`);
  chmodSync(shim, 0o755);
  return shim;
}

function payloadOf(bytes: number): { data: string } {
  // The JSON-RPC envelope adds ~40 bytes; the params object is what is sized.
  return { data: 'x'.repeat(Math.max(0, bytes - 12)) };
}

export interface PathResult {
  echo: Record<string, LatencySummary>;
  flood: { messagesPerSecond: number; mibPerSecond: number };
}

export async function measurePath(peer: BenchPeer): Promise<PathResult> {
  const echo: Record<string, LatencySummary> = {};
  for (const size of ECHO_SIZES) {
    const params = payloadOf(size.bytes);
    // Warm-up as long as the sampling (at most 200 rounds), on every path alike: the figures are
    // for a relay that has been running, not for the JIT compiling its first messages.
    for (let i = 0; i < Math.min(200, size.samples); i++) await peer.request('bench/echo', params);
    const samples: number[] = [];
    for (let i = 0; i < size.samples; i++) {
      const start = performance.now();
      const reply = await peer.request('bench/echo', params);
      samples.push(performance.now() - start);
      if ((reply.result as { data?: string } | undefined)?.data?.length !== params.data.length) throw new Error(`bench/echo ${size.label}: wrong answer`);
    }
    echo[size.label] = summarize(samples);
  }
  let ticks = 0;
  peer.onNotification(() => ticks++);
  const start = performance.now();
  await peer.request('bench/flood', FLOOD);
  const seconds = (performance.now() - start) / 1000;
  peer.onNotification(undefined);
  if (ticks !== FLOOD.count) throw new Error(`flood: ${ticks} of ${FLOOD.count} notifications arrived before the answer`);
  return { echo, flood: { messagesPerSecond: FLOOD.count / seconds, mibPerSecond: (FLOOD.count * FLOOD.size) / seconds / 1048576 } };
}

export async function directStdio(shim: string): Promise<PathResult> {
  const peer = new StdioPeer(shim, [], process.env);
  await peer.initialize();
  try {
    return await measurePath(peer);
  } finally {
    await peer.close();
  }
}

/** Measures a path through WebSocket proxies (closed in order afterwards), reached at `url`. */
async function measureThroughProxies(url: string, proxies: Array<{ close(): Promise<void> }>): Promise<PathResult> {
  const { peer } = await WsPeer.open(url);
  await peer.initialize();
  try {
    return await measurePath(peer);
  } finally {
    await peer.close();
    for (const proxy of proxies) await proxy.close();
  }
}

export async function oneHopProxy(shim: string, mode: 'raw' | 'json'): Promise<PathResult> {
  const proxy = await startPassThroughProxy(shim, [], process.env, mode);
  return measureThroughProxies(proxy.url, [proxy]);
}

/** Two raw hops in processes of their own (forward -> raw -> stdio): the product's hop count, none of its work. */
export async function twoHopProxy(shim: string): Promise<PathResult> {
  const inner = await startPassThroughProxy(shim, [], process.env, 'raw');
  const outer = await startPassThroughProxy(inner.url, [], process.env, 'forward');
  return measureThroughProxies(outer.url, [outer, inner]);
}

/** A browser-side connection to the product: backend gateway + broker -> agentctl -> stdio. */
export function productUrl(stack: RunningStack, sessionId: string, language: string, lease?: string): string {
  return `${stack.url.replace('http', 'ws')}/lsp/${sessionId}?language=${language}${lease ? `&lease=${encodeURIComponent(lease)}` : ''}`;
}

export async function openProduct(
  stack: RunningStack,
  sessionId: string,
  language = 'kotlin',
  lease?: string,
): Promise<{ peer: WsPeer; ready: Record<string, any> }> {
  const { peer, ready } = await WsPeer.open(productUrl(stack, sessionId, language, lease), { ...authHeaders(), Origin: stack.url }, true);
  return { peer, ready: ready as Record<string, any> };
}

export function rssKiB(pid: number): number {
  const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? NaN);
}

/** 200 B echoes, `rounds` per peer, with every peer busy at once. */
async function busyRounds(peers: BenchPeer[], rounds: number): Promise<LatencySummary> {
  const params = payloadOf(200);
  const samples: number[] = [];
  // Warm-up, not sampled: a fresh session's agentctl and server have compiled nothing yet.
  await Promise.all(
    peers.map(async (peer) => {
      for (let i = 0; i < 20; i++) await peer.request('bench/echo', params);
    }),
  );
  await Promise.all(
    peers.map(async (peer) => {
      for (let i = 0; i < rounds; i++) {
        const start = performance.now();
        await peer.request('bench/echo', params);
        samples.push(performance.now() - start);
      }
    }),
  );
  return summarize(samples);
}

async function releaseAll(peers: WsPeer[]): Promise<void> {
  for (const peer of peers) {
    const released = peer.nextFrame((m) => m.status === 'released');
    peer.send({ control: 'release', reason: 'stop' });
    await released;
    await peer.close();
  }
}

function openDocuments(peer: BenchPeer, documents: number): void {
  for (let i = 0; i < documents; i++) {
    peer.notify('textDocument/didOpen', { textDocument: { uri: `file:///bench/doc${i}.kt`, languageId: 'kotlin', version: 1, text: `val x${i} = ${i}\n` } });
  }
}

/** p50 of 200 B echoes with `leases` connections busy at once, each in a session of its own. */
export async function concurrentLeases(stack: RunningStack, taskId: string, leases: number, rounds = 150): Promise<LatencySummary> {
  const peers: WsPeer[] = [];
  for (let i = 0; i < leases; i++) {
    const { peer } = await openProduct(stack, (await stack.startSession(taskId)).id);
    await peer.initialize();
    peers.push(peer);
  }
  const summary = await busyRounds(peers, rounds);
  await releaseAll(peers);
  return summary;
}

/**
 * The same load straight over stdio: `servers` stub servers busy at once (and, with `documents`,
 * one server with that many documents open). What the product adds under load is its figure minus
 * this one, taken in the same run on the same machine.
 */
export async function concurrentDirect(shim: string, servers: number, rounds = 150, documents = 0): Promise<LatencySummary> {
  const peers = Array.from({ length: servers }, () => new StdioPeer(shim, [], process.env));
  try {
    for (const peer of peers) await peer.initialize();
    if (documents > 0) {
      openDocuments(peers[0] as BenchPeer, documents);
      await (peers[0] as BenchPeer).request('bench/echo', payloadOf(200));
    }
    return await busyRounds(peers, rounds);
  } finally {
    for (const peer of peers) await peer.close();
  }
}

/** p50 of 200 B echoes in one lease that has `documents` documents open. */
export async function manyDocuments(stack: RunningStack, taskId: string, documents: number, rounds = 300): Promise<LatencySummary> {
  const { peer } = await openProduct(stack, (await stack.startSession(taskId)).id);
  await peer.initialize();
  openDocuments(peer, documents);
  await peer.request('bench/echo', payloadOf(200)); // every didOpen before it has passed the broker
  const summary = await busyRounds([peer], rounds);
  await releaseAll([peer]);
  return summary;
}

/**
 * Ready-to-use after connect: reattaching to a retained lease (resume, reopen nothing, synchronized)
 * against a cold start (launch + initialize), in separate sessions so neither claims the other's lease.
 */
export async function startTimes(
  stack: RunningStack,
  taskId: string,
  language: string,
  rounds: number,
): Promise<{ reattach: LatencySummary; cold: LatencySummary; resumed: number }> {
  const session = (await stack.startSession(taskId)).id;
  const coldSession = (await stack.startSession(taskId)).id;
  const cold: number[] = [];
  const reattach: number[] = [];
  let resumed = 0;
  let start = performance.now();
  const first = await openProduct(stack, session, language);
  await first.peer.initialize(first.ready.workspaceUri ?? null);
  cold.push(performance.now() - start);
  let lease = first.ready.lease as string;
  await first.peer.close();
  for (let i = 0; i < rounds; i++) {
    start = performance.now();
    const again = await openProduct(stack, session, language, lease);
    if (again.ready.resumed) {
      resumed++;
      const synchronized = again.peer.nextFrame((m) => m.status === 'synchronized');
      again.peer.send({ control: 'attachment-ready' });
      await synchronized;
    } else {
      await again.peer.initialize(again.ready.workspaceUri ?? null);
    }
    reattach.push(performance.now() - start);
    lease = again.ready.lease as string;
    await again.peer.close();

    start = performance.now();
    const fresh = await openProduct(stack, coldSession, language);
    await fresh.peer.initialize(fresh.ready.workspaceUri ?? null);
    cold.push(performance.now() - start);
    const released = fresh.peer.nextFrame((m) => m.status === 'released');
    fresh.peer.send({ control: 'release', reason: 'stop' });
    await released;
    await fresh.peer.close();
  }
  return { reattach: summarize(reattach), cold: summarize(cold), resumed };
}

/** Backend RSS growth per lease held (initialized, one request answered). */
export async function memoryPerLease(
  stack: RunningStack,
  taskId: string,
  leases: number,
): Promise<{ beforeKiB: number; afterKiB: number; perLeaseKiB: number }> {
  const pid = stack.process.pid as number;
  const beforeKiB = rssKiB(pid);
  const held: WsPeer[] = [];
  for (let i = 0; i < leases; i++) {
    const { peer } = await openProduct(stack, (await stack.startSession(taskId)).id);
    await peer.initialize();
    await peer.request('bench/echo', payloadOf(200));
    held.push(peer);
  }
  const afterKiB = rssKiB(pid);
  for (const peer of held) {
    const released = peer.nextFrame((m) => m.status === 'released');
    peer.send({ control: 'release', reason: 'stop' });
    await released;
    await peer.close();
  }
  return { beforeKiB, afterKiB, perLeaseKiB: (afterKiB - beforeKiB) / leases };
}
