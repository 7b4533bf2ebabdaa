import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHeapSpaceStatistics, setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A soak-only probe of the JS heap after a full collection, off unless the process is started
 * with KANDEV_HEAP_PROBE_DIR (the soak bench sets it; nothing else does). RSS alone cannot tell a
 * leak from a heap V8 has not collected yet; the heap used after a forced full GC can.
 *
 * The bench writes `<dir>/<pid>.request.json` ({seq, snapshot}) and sends SIGURG (ignored by
 * default, unused by Node and the product, so a stray one changes nothing when the probe is off);
 * the process collects, answers `<dir>/<pid>.answer.json` with its memory figures and, when asked,
 * writes `<dir>/<pid>-<seq>.heapsnapshot`. Nothing is reachable over the network, and with the
 * variable unset no handler is installed and `gc` is never exposed.
 */
export const HEAP_PROBE_ENV = 'KANDEV_HEAP_PROBE_DIR';
export const HEAP_PROBE_SIGNAL: NodeJS.Signals = 'SIGURG';

export interface HeapProbeRequest {
  seq: number;
  snapshot: boolean;
}

export interface HeapProbeAnswer {
  pid: number;
  seq: number;
  /** process.memoryUsage() right after a full collection, in bytes. */
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  rss: number;
  /** Bytes used per V8 heap space after the collection: code spaces grow as functions are compiled, which is no leak. */
  spaces: Record<string, number>;
  /** The heap snapshot's path, when one was asked for. */
  snapshot?: string;
}

export const heapProbeFiles = (dir: string, pid: number) => ({
  request: join(dir, `${pid}.request.json`),
  answer: join(dir, `${pid}.answer.json`),
  snapshot: (seq: number) => join(dir, `${pid}-${seq}.heapsnapshot`),
});

/** One answer: collect, measure, optionally snapshot; written whole (rename) so a reader never sees half. */
export function answerHeapProbe(dir: string, pid: number, collect: () => void): HeapProbeAnswer {
  const files = heapProbeFiles(dir, pid);
  const request = JSON.parse(readFileSync(files.request, 'utf8')) as HeapProbeRequest;
  collect();
  const m = process.memoryUsage();
  const answer: HeapProbeAnswer = {
    pid,
    seq: request.seq,
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    rss: m.rss,
    spaces: Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, s.space_used_size])),
  };
  if (request.snapshot) answer.snapshot = writeHeapSnapshot(files.snapshot(request.seq));
  writeFileSync(`${files.answer}.tmp`, JSON.stringify(answer));
  renameSync(`${files.answer}.tmp`, files.answer);
  return answer;
}

/** V8's full collection, exposed at run time rather than by a command-line flag the launchers would have to pass. */
function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Installs the probe when `env` asks for it; returns its removal, or undefined when it is off. */
export function startHeapProbe(env: Record<string, string | undefined>, onError: (err: unknown) => void): (() => void) | undefined {
  const dir = env[HEAP_PROBE_ENV];
  if (dir === undefined || dir === '') return undefined;
  const gc = exposedGc();
  const onSignal = (): void => {
    try {
      answerHeapProbe(dir, process.pid, gc);
    } catch (err) {
      onError(err);
    }
  };
  process.on(HEAP_PROBE_SIGNAL, onSignal);
  return () => process.off(HEAP_PROBE_SIGNAL, onSignal);
}
