import { createHash, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';

/**
 * Every Local PC agentctl gets this variable, and everything it starts (language servers,
 * installers, their descendants) inherits it: agentctl only strips AGENTCTL_* from what it passes
 * on. It survives re-parenting, setsid and process-group changes, and stays readable in
 * /proc/<pid>/environ, so the backend finds a task host's trees after that agentctl died
 * (markedProcesses.ts). The value is `<owner>.<instance>`: the owner tag names the backend's
 * KANDEV_HOME, so a restarted backend reaps what its SIGKILLed predecessor left and never touches
 * another backend's processes.
 */
export const TASK_HOST_MARKER_VARIABLE = 'KANDEV_TASK_HOST';

/** A short stable tag for one KANDEV_HOME (hashed: the path itself stays out of every environment). */
export function ownerTag(kandevHome: string): string {
  return createHash('sha256').update(resolve(kandevHome)).digest('hex').slice(0, 16);
}

/** A fresh marker value for one agentctl instance of this owner. */
export function newTaskHostMarker(owner: string): string {
  return `${owner}.${randomUUID()}`;
}

/** Matches the processes of one agentctl instance. */
export function instanceMatch(marker: string): (value: string) => boolean {
  return (value) => value === marker;
}

/** Matches the processes of every agentctl instance of this owner (start-up sweep). */
export function ownerMatch(owner: string): (value: string) => boolean {
  return (value) => value.startsWith(`${owner}.`);
}
