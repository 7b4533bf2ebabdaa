/** The soak's side of the heap probe (KANDEV_HEAP_PROBE_DIR): ask a process for its heap after a full GC. */
import { existsSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { HEAP_PROBE_SIGNAL, heapProbeFiles, type HeapProbeAnswer, type HeapProbeRequest } from '@kandev/node-transport';

function answerOf(file: string, seq: number): HeapProbeAnswer | undefined {
  if (!existsSync(file)) return undefined;
  const answer = JSON.parse(readFileSync(file, 'utf8')) as HeapProbeAnswer;
  return answer.seq === seq ? answer : undefined;
}

/**
 * Writes the request, signals the process and waits for its answer (the answer file is renamed
 * into place, which the directory watch reports). Undefined when the process is gone or silent.
 */
export async function probeHeap(dir: string, pid: number, seq: number, snapshot: boolean, timeoutMs = 120_000): Promise<HeapProbeAnswer | undefined> {
  const files = heapProbeFiles(dir, pid);
  const request: HeapProbeRequest = { seq, snapshot };
  writeFileSync(files.request, JSON.stringify(request));
  return new Promise((resolve) => {
    const watcher = watch(dir);
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    function finish(answer: HeapProbeAnswer | undefined): void {
      clearTimeout(timer);
      watcher.close();
      resolve(answer);
    }
    const check = (): void => {
      try {
        const answer = answerOf(files.answer, seq);
        if (answer) finish(answer);
      } catch {
        // a half-read file cannot happen (rename), but a vanished directory ends the wait at the timeout
      }
    };
    watcher.on('change', check);
    watcher.on('error', () => finish(undefined));
    try {
      process.kill(pid, HEAP_PROBE_SIGNAL);
    } catch {
      finish(undefined); // the process is gone
      return;
    }
    check();
  });
}
