/** One checkpoint of the soak: what the backend, every agentctl and /metrics say at that moment. */
import { METRICS_PATH } from '@kandev/protocol';
import { authHeaders } from '../../test/support/access.js';
import { MiB, rssBytes } from '../../test/support/procStatus.js';
import { commandOf, envOf, describeProcess, isZombie, openFds, processesMarked, tree } from './procs.js';

export interface AgentctlFigures {
  /** The session it serves, by its workspace (AGENTCTL_WORKSPACE). */
  name: string;
  pid: number;
  rssMiB: number;
  fds: number;
}

export interface Checkpoint {
  atS: number;
  backendRssMiB: number;
  backendFds: number;
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
): Promise<Checkpoint> {
  const text = await (await fetch(`${url}${METRICS_PATH}`, { headers: authHeaders(), signal: AbortSignal.timeout(15_000) })).text();
  const all = tree(backend);
  const agentctls = all
    .filter((p) => commandOf(p).includes('agentctl'))
    .map((pid) => ({ name: sessionOfWorkspace(envOf(pid, 'AGENTCTL_WORKSPACE') ?? ''), pid, rssMiB: (rssBytes(pid) ?? 0) / MiB, fds: openFds(pid) }));
  return {
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
    zombies: all.filter(isZombie).map(describeProcess),
  };
}
