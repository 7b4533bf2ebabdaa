/**
 * Support for the Local Docker integration tests (docker-*.test.ts): the private test dockerd of
 * scripts/docker-env.sh, a workspace with the fake language server installed for the container,
 * and the host-side view of a container's processes (/proc), which is the witness that a process
 * runs inside it.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { ensureBuilt, repoRoot } from '../support/build.js';
import { prerequisite } from '../support/env.js';
import { fakeServerBundle } from '../support/fakeServer.js';

export const SESSION_LABEL = 'dev.kandev.session';
export const OWNER_LABEL = 'dev.kandev.owner';
/** The image's PATH, for task envs that put their own bin folder first. */
export const CONTAINER_SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const script = join(repoRoot, 'scripts/docker-env.sh');
const state = process.env.KANDEV_DOCKER_STATE || '/tmp/kandev-dockerd';

function onPath(binary: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, binary)));
}

/**
 * Whether this machine can run the Docker suites: Debian's docker.io and debootstrap, and root to
 * start a private dockerd. Locally a missing piece skips with the reason; in CI it fails.
 */
export const dockerAvailable = prerequisite(
  ['dockerd', 'docker', 'debootstrap'].every(onPath) && process.getuid?.() === 0,
  'Docker (Debian docker.io and debootstrap, run as root to start a private dockerd)',
);

export interface DockerEnv {
  dockerHost: string;
  image: string;
  docker: Docker;
  /** True when this call started dockerd: only then does stopDockerEnv stop it. */
  startedHere: boolean;
}

function dockerdRunning(): boolean {
  try {
    process.kill(Number(readFileSync(join(state, 'dockerd.pid'), 'utf8')), 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs `scripts/docker-env.sh start` (dockerd and the debootstrap image) and parses its exports. */
export function startDockerEnv(): DockerEnv {
  const wasRunning = dockerdRunning();
  const out = execFileSync('bash', [script, 'start'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 20 * 60_000 });
  const exports = Object.fromEntries([...out.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
  const dockerHost = exports.DOCKER_HOST;
  const image = exports.KANDEV_DOCKER_IMAGE;
  if (!dockerHost?.startsWith('unix://') || !image) throw new Error(`docker-env.sh printed no DOCKER_HOST/KANDEV_DOCKER_IMAGE: ${out}`);
  return { dockerHost, image, docker: new Docker({ socketPath: dockerHost.slice('unix://'.length) }), startedHere: !wasRunning };
}

/** A backend's environment for tasks in this private dockerd: its image, on the host network. */
export function dockerBackendEnv(env: DockerEnv, extra: Record<string, string> = {}): Record<string, string> {
  return { DOCKER_HOST: env.dockerHost, KANDEV_DOCKER_IMAGE: env.image, KANDEV_DOCKER_NETWORK: 'host', ...extra };
}

export function stopDockerEnv(env: DockerEnv | undefined): void {
  if (env?.startedHere) execFileSync('bash', [script, 'stop'], { stdio: 'inherit' });
}

/**
 * The container has only the base image's file system, so the CA certificates this machine's npm
 * trusts (a TLS-inspecting proxy's, say) travel with the task as a person's task settings would
 * carry them: files in the workspace `dir`, named by NODE_EXTRA_CA_CERTS and npm's cafile.
 */
export function containerCaEnv(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const cafile = execFileSync('npm', ['config', 'get', 'cafile'], { encoding: 'utf8' }).trim();
  for (const [key, source] of [
    ['NODE_EXTRA_CA_CERTS', process.env.NODE_EXTRA_CA_CERTS],
    ['npm_config_cafile', cafile],
  ] as const) {
    if (!source || source === 'null' || !existsSync(source)) continue;
    mkdirSync(join(dir, '.ca'), { recursive: true });
    copyFileSync(source, join(dir, '.ca', key));
    out[key] = `/workspace/.ca/${key}`;
  }
  return out;
}

/** Task containers of one owner (a backend's KANDEV_HOME, or a test's executor owner). */
export async function ownedContainers(docker: Docker, owner: string): Promise<Docker.ContainerInfo[]> {
  return docker.listContainers({ all: true, filters: { label: [SESSION_LABEL, `${OWNER_LABEL}=${owner}`] } });
}

/** Cleanup: every task container of this owner goes, whatever a failed test left. */
export async function removeOwnedContainers(docker: Docker, owner: string): Promise<void> {
  for (const c of await ownedContainers(docker, owner))
    await docker
      .getContainer(c.Id)
      .remove({ force: true })
      .catch(() => undefined);
}

/**
 * Container create events with these labels (`key=value`) between two instants, in seconds with
 * a fraction (Docker takes seconds.nanoseconds), so a neighbouring test's container never counts.
 */
export async function containerCreations(docker: Docker, labels: string[], since: number, until: number): Promise<unknown[]> {
  const stamp = (t: number) => t.toFixed(6) as unknown as number;
  const stream = (await docker.getEvents({
    since: stamp(since),
    until: stamp(until),
    filters: { type: ['container'], event: ['create'], label: labels },
  })) as NodeJS.ReadableStream;
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown);
}

function procStat(pid: number): { state: string; ppid: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [stateField, ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: stateField as string, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  const stat = procStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

/** Host pids of a container's processes: its init (State.Pid) and every live descendant. */
export async function containerHostPids(docker: Docker, containerId: string): Promise<number[]> {
  const init = (await docker.getContainer(containerId).inspect()).State.Pid;
  if (!init) return [];
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (!stat || stat.state === 'Z') continue;
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(entry)]);
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    out.push(pid);
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(init);
  return out;
}

/** The pid a host process has inside its own PID namespace (the last NSpid field). */
export function innerPid(hostPid: number): number | undefined {
  try {
    const line = readFileSync(`/proc/${hostPid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('NSpid:'));
    const last = line?.trim().split(/\s+/).pop();
    return last ? Number(last) : undefined;
  } catch {
    return undefined;
  }
}

export function mountNamespace(pid: number | 'self'): string {
  return readlinkSync(`/proc/${pid}/ns/mnt`);
}

export interface DockerWorkspace {
  /** Host folder, mounted at /workspace (or /workspace/<name> among several). */
  dir: string;
  /** Env for the task: PATH with the container-side fake server first, its script and log. */
  env: Record<string, string>;
  /** Host paths of what the fake server writes (the container sees them under /workspace). */
  logFile: string;
  envDumps: string;
}

/**
 * A repository folder with the fake language server installed as `kotlin-lsp` for the CONTAINER:
 * the bundle is copied into the repository and the shim runs `node /workspace/.tools/...`, a path
 * that exists only inside the container. Before exec'ing, the shim records its environment, the
 * witness of what a server launched by agentctl really gets.
 */
export function dockerWorkspace(dir: string, files: Record<string, string>, fake: FakeScript = {}, containerRoot = '/workspace'): DockerWorkspace {
  ensureBuilt('fake-lsp-server');
  const tools = join(dir, '.tools');
  mkdirSync(join(tools, 'bin'), { recursive: true });
  mkdirSync(join(dir, '.fake', 'env'), { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  copyFileSync(fakeServerBundle, join(tools, 'fake-lsp-server.mjs'));
  writeFileSync(join(dir, '.fake', 'script.json'), JSON.stringify(fake));
  const shim = join(tools, 'bin', 'kotlin-lsp');
  writeFileSync(shim, `#!/bin/sh\nenv > ${containerRoot}/.fake/env/$$.txt\nexec node ${containerRoot}/.tools/fake-lsp-server.mjs "$@"\n`);
  chmodSync(shim, 0o755);
  return {
    dir,
    env: {
      PATH: `${containerRoot}/.tools/bin:${CONTAINER_SYSTEM_PATH}`,
      FAKE_LSP_SCRIPT: `${containerRoot}/.fake/script.json`,
      FAKE_LSP_LOG: `${containerRoot}/.fake/log.jsonl`,
    },
    logFile: join(dir, '.fake', 'log.jsonl'),
    envDumps: join(dir, '.fake', 'env'),
  };
}

/** The environments the fake server's shim recorded, parsed (one per launch). */
export function recordedEnvs(ws: DockerWorkspace): Record<string, string>[] {
  if (!existsSync(ws.envDumps)) return [];
  return readdirSync(ws.envDumps).map((file) =>
    Object.fromEntries(
      readFileSync(join(ws.envDumps, file), 'utf8')
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    ),
  );
}

/** Polls a condition (processes and containers go away asynchronously). */
export async function eventually(check: () => boolean | Promise<boolean>, attempts = 400): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

/**
 * The pids among `pids` of the language server named `name`. An untrusted server runs under
 * bubblewrap (no network), whose own command line names the server too: the wrapper is not it.
 */
export function languageServerPids(pids: readonly number[], name: string): number[] {
  return pids.filter((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return argv.some((arg) => arg.includes(name)) && !argv[0]?.endsWith('bwrap');
    } catch {
      return false;
    }
  });
}

/**
 * The base image with bubblewrap taken out, committed as `name`: a task image on which an untrusted
 * server cannot be taken off the network (`network: "unavailable"`). Remove it with `docker.getImage(name).remove()`.
 */
export async function imageWithoutBwrap(env: DockerEnv, name: string): Promise<string> {
  const maker = await env.docker.createContainer({ Image: env.image, Cmd: ['rm', '-f', '/usr/bin/bwrap'] });
  await maker.start();
  await maker.wait();
  await maker.commit({ repo: name });
  await maker.remove();
  return name;
}
