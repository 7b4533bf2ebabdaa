import { isAbsolute, posix } from 'node:path';
import { fail, ok, type Result } from '../../base/result.js';
import { CONTAINER_RUNTIME_DIR, CONTAINER_WORKSPACE, type RuntimeMount } from './runtimeMounts.js';

export type DockerNetworkMode = 'host' | 'published';
/** `sandbox`: Kandev's own profile (seccompProfile.ts), which lets bubblewrap work; `docker`: Docker's default. */
export type DockerSeccompMode = 'sandbox' | 'docker';

/**
 * Local Docker settings, read once with the rest of the backend configuration:
 *
 * | variable | meaning |
 * | --- | --- |
 * | `DOCKER_HOST` | the Docker Engine to use (`unix:///path` or whatever dockerode understands); default: the local socket |
 * | `KANDEV_DOCKER_IMAGE` | image of task containers; a task overrides it with the same key in its `env` |
 * | `KANDEV_DOCKER_NETWORK` | `published` (default: agentctl's port published on 127.0.0.1) or `host` (host networking) |
 * | `KANDEV_DOCKER_MOUNTS` | JSON array of extra bind mounts for every task container, `"/host:/container[:ro]"` |
 * | `KANDEV_DOCKER_SECCOMP` | `sandbox` (default: Kandev's seccomp profile, untrusted servers can be taken off the network) or `docker` (Docker's default profile) |
 */
export interface DockerConfig {
  host: string | undefined;
  /** Undefined: every local_docker task must name its image in its env. */
  image: string | undefined;
  network: DockerNetworkMode;
  mounts: RuntimeMount[];
  seccomp: DockerSeccompMode;
}

type Env = Record<string, string | undefined>;

/** Folders Kandev itself mounts in a task container; an extra mount there would hide them. */
const RESERVED_TARGETS = [CONTAINER_WORKSPACE, CONTAINER_RUNTIME_DIR];

export function loadDockerConfig(env: Env): Result<DockerConfig, string> {
  const network = env.KANDEV_DOCKER_NETWORK || 'published';
  if (network !== 'published' && network !== 'host') return fail('KANDEV_DOCKER_NETWORK must be "published" or "host"');
  const seccomp = env.KANDEV_DOCKER_SECCOMP || 'sandbox';
  if (seccomp !== 'sandbox' && seccomp !== 'docker') return fail('KANDEV_DOCKER_SECCOMP must be "sandbox" or "docker"');
  const mounts = parseMounts(env.KANDEV_DOCKER_MOUNTS);
  if (!mounts.ok) return mounts;
  return ok({ host: env.DOCKER_HOST || undefined, image: env.KANDEV_DOCKER_IMAGE || undefined, network, mounts: mounts.value, seccomp });
}

function parseMounts(raw: string | undefined): Result<RuntimeMount[], string> {
  if (raw === undefined || raw.trim() === '') return ok([]);
  const usage = 'KANDEV_DOCKER_MOUNTS must be a JSON array like ["/opt/tools:/opt/tools:ro"]';
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return fail(usage);
  }
  if (!Array.isArray(parsed) || parsed.some((m) => typeof m !== 'string')) return fail(usage);
  const mounts: RuntimeMount[] = [];
  for (const spec of parsed as string[]) {
    const parts = spec.split(':');
    const [hostPath, containerPath, mode] = parts;
    if (parts.length < 2 || parts.length > 3 || !hostPath || !containerPath || (mode !== undefined && mode !== 'ro' && mode !== 'rw')) {
      return fail(`${usage}; got ${JSON.stringify(spec)}`);
    }
    if (!isAbsolute(hostPath) || !posix.isAbsolute(containerPath)) return fail(`KANDEV_DOCKER_MOUNTS: both paths must be absolute in ${JSON.stringify(spec)}`);
    const target = posix.normalize(containerPath);
    if (RESERVED_TARGETS.some((r) => target === r || target.startsWith(`${r}/`) || r.startsWith(`${target}/`) || target === '/')) {
      return fail(`KANDEV_DOCKER_MOUNTS: ${target} overlaps a folder Kandev mounts (${RESERVED_TARGETS.join(', ')})`);
    }
    mounts.push({ hostPath, containerPath: target, readOnly: mode === 'ro' });
  }
  return ok(mounts);
}
