/** One checkpoint of the soak: what the backend, every agentctl and /metrics say at that moment. */
import { loadavg } from 'node:os';
import { METRICS_PATH } from '@kandev/protocol';
import { authHeaders } from '../../test/support/access.js';
import { MiB, rssBytes } from '../../test/support/procStatus.js';
import { probeHeap } from './heap.js';
import { commandOf, envOf, lastingZombies, openFds, processesMarked, tree } from './procs.js';

export interface AgentctlFigures {
  /** The session it serves, by its workspace (AGENTCTL_WORKSPACE). */
  name: string;
  pid: number;
  rssMiB: number;
  fds: number;
  heap?: HeapAfterGc;
}

/** The heap probe's answer in MiB (absent when the probe is off or the process did not answer). */
export interface HeapAfterGc {
  usedMiB: number;
  /** Of usedMiB, the code spaces (compiled functions: they grow as more code runs, then level). */
  codeMiB: number;
  externalMiB: number;
  arrayBuffersMiB: number;
  snapshot?: string;
}

/** Heap probing for one checkpoint: the probe directory, the request's number, whether to snapshot. */
export interface HeapRequest {
  dir: string;
  seq: number;
  snapshot: boolean;
}

export interface Checkpoint {
  atS: number;
  backendRssMiB: number;
  backendFds: number;
  /** Heap after a full GC (the probe), taken after every other figure of the checkpoint. */
  backendHeap?: HeapAfterGc;
  agentctls: AgentctlFigures[];
  leases: number;
  leasesDetached: number;
  /** kandev_process_active_resources by type. */
  resources: Record<string, number>;
  clockTimers: number;
  /** Every process under the backend, and every one that carries the run's marker. */
  processes: number;
  marked: number;
  zombies: string[];
  /** The machine's 1-minute load average: the soak shares its cores with whatever else runs. */
  load1: number;
}

const gauge = (text: string, name: string): number => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text)?.[1] ?? NaN);

function resources(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^kandev_process_active_resources\{type="([^"]+)"\} ([0-9.e+-]+)$/gm)) out[m[1] as string] = Number(m[2]);
  return out;
}

export async function checkpoint(
  url: string,
  backend: number,
  atS: number,
  marker: string,
  sessionOfWorkspace: (workspace: string) => string,
  heap?: HeapRequest,
): Promise<Checkpoint> {
  const text = await (await fetch(`${url}${METRICS_PATH}`, { headers: authHeaders(), signal: AbortSignal.timeout(15_000) })).text();
  const all = tree(backend);
  const agentctls = all
    .filter((p) => commandOf(p).includes('agentctl'))
    .map((pid): AgentctlFigures => ({
      name: sessionOfWorkspace(envOf(pid, 'AGENTCTL_WORKSPACE') ?? ''),
      pid,
      rssMiB: (rssBytes(pid) ?? 0) / MiB,
      fds: openFds(pid),
    }));
  const point: Checkpoint = {
    atS,
    backendRssMiB: (rssBytes(backend) ?? 0) / MiB,
    backendFds: openFds(backend),
    agentctls,
    leases: gauge(text, 'kandev_lsp_leases'),
    leasesDetached: gauge(text, 'kandev_lsp_leases_detached'),
    resources: resources(text),
    clockTimers: gauge(text, 'kandev_process_clock_timers'),
    processes: all.length,
    marked: processesMarked(marker).length,
    zombies: await lastingZombies(all),
    load1: loadavg()[0] ?? NaN,
  };
  if (heap) {
    // After every other figure: the forced collections must not lower this checkpoint's RSS.
    const probed = await Promise.all([backend, ...agentctls.map((a) => a.pid)].map((pid) => probeHeapMiB(heap, pid)));
    point.backendHeap = probed[0];
    agentctls.forEach((a: AgentctlFigures, i) => (a.heap = probed[i + 1]));
  }
  return point;
}

async function probeHeapMiB(heap: HeapRequest, pid: number): Promise<HeapAfterGc | undefined> {
  const answer = await probeHeap(heap.dir, pid, heap.seq, heap.snapshot);
  if (!answer) return undefined;
  return {
    usedMiB: answer.heapUsed / MiB,
    codeMiB: Object.entries(answer.spaces)
      .filter(([name]) => name.startsWith('code_'))
      .reduce((sum, [, bytes]) => sum + bytes / MiB, 0),
    externalMiB: answer.external / MiB,
    arrayBuffersMiB: answer.arrayBuffers / MiB,
    ...(answer.snapshot ? { snapshot: answer.snapshot } : {}),
  };
}
