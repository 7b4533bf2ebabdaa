import { AGENTCTL_ENV_PREFIX, agentctlLaunchEnv } from '@kandev/protocol';
import { CONTAINER_BIN_DIR, CONTAINER_WORKSPACE } from './runtimeMounts.js';

/** A task's env key that picks its image instead of KANDEV_DOCKER_IMAGE; it is not passed inside. */
export const TASK_IMAGE_KEY = 'KANDEV_DOCKER_IMAGE';

/** Docker's own PATH for an image that sets none. */
export const DOCKER_DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export interface ContainerEnvInput {
  taskEnv: Record<string, string>;
  /** The image's `Config.Env` (`KEY=value` strings), for the PATH the task did not set. */
  imageEnv: readonly string[];
  token: string;
  repoSubpaths: string[];
  listenHost: string;
  listenPort: number;
  orphanGraceMs?: number;
}

/**
 * The environment of agentctl inside the container, and so of every server and installer it runs:
 * the image's own environment (Docker applies it: HOME of the image's user, e.g. /root), the task's
 * overrides on top, and agentctl's variables. Nothing of the backend's host environment goes in:
 * the container's OS and toolchain decide, not this machine's.
 *
 * Our runtime's bin folder goes LAST on PATH: an image or task that brings its own node/npm keeps
 * them, and an image without Node.js still finds ours.
 */
export function containerEnvironment(input: ContainerEnvInput): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(input.taskEnv)) {
    if (key.startsWith(AGENTCTL_ENV_PREFIX) || key === TASK_IMAGE_KEY) continue;
    env[key] = value;
  }
  const basePath = input.taskEnv.PATH ?? imageVariable(input.imageEnv, 'PATH') ?? DOCKER_DEFAULT_PATH;
  env.PATH = basePath.split(':').includes(CONTAINER_BIN_DIR) ? basePath : `${basePath}:${CONTAINER_BIN_DIR}`;
  // The backend holds the container's stdin open (an attach); if the backend dies, agentctl sees
  // end-of-file and, after the restart grace unless a restarted backend re-adopted it, shuts down
  // as on SIGTERM, and the container ends (and is auto-removed) with it.
  Object.assign(
    env,
    agentctlLaunchEnv({
      token: input.token,
      workspacePath: CONTAINER_WORKSPACE,
      repoSubpaths: input.repoSubpaths,
      host: input.listenHost,
      port: input.listenPort,
      exitOnStdinClose: true,
      ...(input.orphanGraceMs ? { orphanGraceMs: input.orphanGraceMs } : {}),
    }),
  );
  return env;
}

function imageVariable(imageEnv: readonly string[], name: string): string | undefined {
  const entry = imageEnv.find((e) => e.startsWith(`${name}=`));
  return entry?.slice(name.length + 1);
}
