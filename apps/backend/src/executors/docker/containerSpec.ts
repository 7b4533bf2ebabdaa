import { basename, resolve } from 'node:path';
import type Docker from 'dockerode';
import { containerEnvironment } from './containerEnv.js';
import type { DockerNetworkMode, DockerSeccompMode } from './dockerConfig.js';
import { CONTAINER_AGENTCTL, CONTAINER_NODE, CONTAINER_WORKSPACE, type RuntimeMount } from './runtimeMounts.js';
import { seccompSecurityOpt } from './seccompProfile.js';

/** The port agentctl listens on inside the container when it has its own network namespace. */
export const CONTAINER_AGENTCTL_PORT = 7421;
export const AGENTCTL_PORT_KEY = `${CONTAINER_AGENTCTL_PORT}/tcp`;

/** Every task container carries its session; tests and operators find them by this label. */
export const SESSION_LABEL = 'dev.kandev.session';
/** Which backend (its KANDEV_HOME) owns the container, so a restarted backend removes only its own. */
export const OWNER_LABEL = 'dev.kandev.owner';

export interface ContainerSpecInput {
  image: string;
  /** The image's `Config.Env`, for the PATH a task does not set. */
  imageEnv: readonly string[];
  sessionId: string;
  owner: string;
  token: string;
  /** Host folders of the task's repositories (checked to exist), mounted under /workspace. */
  repositories: string[];
  /** Task environment overrides, applied inside the container on top of the image's own. */
  taskEnv: Record<string, string>;
  network: DockerNetworkMode;
  /** Which seccomp profile confines the container. */
  seccomp: DockerSeccompMode;
  /** Runtime (node, npm, agentctl) and configured extra mounts. */
  mounts: RuntimeMount[];
  /** How long agentctl outlives the backend for a restarted one to re-adopt it (0 or absent: not at all). */
  orphanGraceMs?: number;
}

/** Repository folder names inside /workspace: one repository is the workspace itself. */
export function repositorySubpaths(repositories: readonly string[]): string[] {
  if (repositories.length <= 1) return [];
  const used = new Set<string>();
  return repositories.map((path, i) => {
    const base = basename(resolve(path)) || `repo${i + 1}`;
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}-${n}`;
    used.add(name);
    return name;
  });
}

/**
 * The container's create options. Init puts a reaping PID 1 (docker-init) above agentctl; the
 * container's PID namespace then guarantees that ending it ends every process started inside.
 * Binds are structured `Mounts`, not `-v` strings: Docker refuses a missing bind source instead of
 * creating a directory on the host, and paths with `:` or `,` need no escaping.
 */
export function containerSpec(input: ContainerSpecInput): Docker.ContainerCreateOptions {
  const subpaths = repositorySubpaths(input.repositories);
  const host = input.network === 'host';
  const repoMounts = input.repositories.map((source, i) =>
    bind(resolve(source), subpaths.length ? `${CONTAINER_WORKSPACE}/${subpaths[i]}` : CONTAINER_WORKSPACE, false),
  );
  const env = containerEnvironment({
    taskEnv: input.taskEnv,
    imageEnv: input.imageEnv,
    token: input.token,
    repoSubpaths: subpaths,
    // Host networking shares this machine's loopback: an ephemeral port there. Otherwise a fixed
    // port on every interface of the container's own namespace, published on 127.0.0.1 only.
    listenHost: host ? '127.0.0.1' : '0.0.0.0',
    listenPort: host ? 0 : CONTAINER_AGENTCTL_PORT,
    ...(input.orphanGraceMs ? { orphanGraceMs: input.orphanGraceMs } : {}),
  });
  return {
    ...(/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/.test(input.sessionId) ? { name: `kandev-${input.sessionId}` } : {}),
    Image: input.image,
    Entrypoint: [CONTAINER_NODE],
    Cmd: [CONTAINER_AGENTCTL],
    Env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
    WorkingDir: CONTAINER_WORKSPACE,
    // stdin stays open while the backend's attach lasts, and closes for good when it ends.
    AttachStdin: true,
    OpenStdin: true,
    StdinOnce: true,
    Labels: { [SESSION_LABEL]: input.sessionId, [OWNER_LABEL]: input.owner },
    ...(host ? {} : { ExposedPorts: { [AGENTCTL_PORT_KEY]: {} } }),
    HostConfig: {
      Mounts: [...repoMounts, ...input.mounts.map((m) => bind(m.hostPath, m.containerPath, m.readOnly))],
      Init: true,
      // Whoever ends it (a stop, a crash, a backend that died), Docker removes it on exit.
      AutoRemove: true,
      NetworkMode: host ? 'host' : 'bridge',
      // Kandev's profile lets bubblewrap make the namespaces that take untrusted servers off the
      // network; Docker's default refuses them. Capabilities stay Docker's defaults either way.
      ...(input.seccomp === 'sandbox' ? { SecurityOpt: [seccompSecurityOpt()] } : {}),
      // Published only on loopback, on a port Docker picks: never reachable from another machine.
      ...(host ? {} : { PortBindings: { [AGENTCTL_PORT_KEY]: [{ HostIp: '127.0.0.1', HostPort: '' }] } }),
    },
  };
}

function bind(source: string, target: string, readOnly: boolean): Docker.MountSettings {
  return { Type: 'bind', Source: source, Target: target, ReadOnly: readOnly };
}
