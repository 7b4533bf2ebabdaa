import { type Clock, deadline, systemClock } from '@kandev/kit';
import type Docker from 'dockerode';
import { OWNER_LABEL } from './containerSpec.js';

const LIST_TIMEOUT_MS = 10_000;

/**
 * Removes the task containers an earlier process of this same backend (same KANDEV_HOME) left
 * running when it died without stopping them: their sessions were already marked stopped, so no
 * one can reach them any more. Containers of other backends sharing the daemon are not touched.
 * Returns how many were removed; an unreachable Docker is not an error here (nothing to clean).
 */
export async function removeLeftoverContainers(
  docker: Docker,
  owner: string,
  clock: Clock = systemClock,
  keep: ReadonlySet<string> = new Set(),
): Promise<number> {
  let leftovers: Docker.ContainerInfo[];
  // A daemon that never answers must not hold every later start hostage.
  const listDeadline = deadline(clock, LIST_TIMEOUT_MS);
  const timeout = listDeadline.reached.then((): never => {
    throw new Error('timeout');
  });
  try {
    leftovers = await Promise.race([docker.listContainers({ all: true, filters: { label: [`${OWNER_LABEL}=${owner}`] } }), timeout]);
  } catch {
    return 0;
  } finally {
    listDeadline.dispose();
  }
  const removed = await Promise.all(
    leftovers
      .filter((c) => !keep.has(c.Id))
      .map((c) =>
        docker
          .getContainer(c.Id)
          .remove({ force: true })
          .then(
            () => 1,
            () => 0,
          ),
      ),
  );
  return removed.reduce<number>((a, b) => a + b, 0);
}
