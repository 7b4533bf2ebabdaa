import type Docker from 'dockerode';
import { OWNER_LABEL } from './containerSpec.js';

/**
 * Removes the task containers an earlier process of this same backend (same KANDEV_HOME) left
 * running when it died without stopping them: their sessions were already marked stopped, so no
 * one can reach them any more. Containers of other backends sharing the daemon are not touched.
 * Returns how many were removed; an unreachable Docker is not an error here (nothing to clean).
 */
export async function removeLeftoverContainers(docker: Docker, owner: string): Promise<number> {
  let leftovers: Docker.ContainerInfo[];
  try {
    leftovers = await docker.listContainers({ all: true, filters: { label: [`${OWNER_LABEL}=${owner}`] } });
  } catch {
    return 0;
  }
  const removed = await Promise.all(leftovers.map((c) => docker.getContainer(c.Id).remove({ force: true }).then(() => 1, () => 0)));
  return removed.reduce<number>((a, b) => a + b, 0);
}
