import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { type Clock, deadline, systemClock } from '@kandev/kit';
import { RotatingFile, waitForListening } from '@kandev/node-transport';
import { fail, messageOf, ok, type Result } from '../../base/result.js';
import { AGENTCTL_PORT_KEY, containerSpec, type ContainerSpecInput } from './containerSpec.js';
import { dockerFailure, type DockerError } from './dockerErrors.js';

export interface DockerTaskHost {
  containerId: string;
  /** agentctl answers on 127.0.0.1:port (host networking, or the published port). */
  port: number;
  /** Settles once the container has exited AND been removed, whoever ended it. */
  exited: Promise<{ code: number | null }>;
  /** SIGTERM to agentctl (docker-init forwards it), SIGKILL after the grace, then removal. Idempotent. */
  stop(): Promise<{ code: number | null; escalated: boolean }>;
}

export interface DockerTaskHostOptions {
  spec: Omit<ContainerSpecInput, 'imageEnv'>;
  startTimeoutMs: number;
  stopGraceMs: number;
  /** agentctl's stderr (its JSON logs) is appended here, as for a Local PC agentctl. */
  logFile: string;
  /** The log file past this moves to `.1` (default DEFAULT_LOG_MAX_BYTES). */
  logMaxBytes?: number;
  /** Times the Docker ping, the listening wait and the drain of a dead agentctl's last words. */
  clock?: Clock;
}

const PING_TIMEOUT_MS = 10_000;
const STDERR_TAIL_BYTES = 1024;
const DRAIN_MS = 1_000;
/** What `docker stop` reports when the grace ran out and the container was killed. */
const SIGKILL_STATUS = 137;

/** Starts a task container running agentctl and waits until agentctl listens. */
export async function startDockerTaskHost(docker: Docker, options: DockerTaskHostOptions): Promise<Result<DockerTaskHost, DockerError>> {
  const reachable = await ping(docker, options.clock ?? systemClock);
  if (!reachable.ok) return reachable;
  const image = await inspectImage(docker, options.spec.image);
  if (!image.ok) return image;
  let container: Docker.Container;
  try {
    container = await docker.createContainer(containerSpec({ ...options.spec, imageEnv: image.value }));
  } catch (err) {
    return fail(dockerFailure('container_failed', `Docker could not create the task container: ${dockerMessage(err)}`));
  }
  const remove = () =>
    container.remove({ force: true }).then(
      () => undefined,
      () => undefined,
    );
  const started = await startAndWaitForListening(container, options);
  if (!started.ok) {
    await remove();
    return started;
  }
  // Docker removes it on exit (AutoRemove); the explicit removal covers a wait that failed.
  const exited = started.value.waited.then(async (code) => {
    await remove();
    started.value.closeLog();
    return { code };
  });
  const port = options.spec.network === 'host' ? ok(started.value.innerPort) : await publishedPort(container);
  if (!port.ok) {
    await remove();
    return port;
  }
  let stopping: Promise<{ code: number | null; escalated: boolean }> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // Already stopped or gone: the wait above still settles and removes what is left.
      await container.stop({ t: Math.ceil(options.stopGraceMs / 1000) }).catch(() => undefined);
      const exit = await exited;
      return { ...exit, escalated: exit.code === SIGKILL_STATUS };
    })());
  return ok({ containerId: container.id, port: port.value, exited, stop });
}

async function ping(docker: Docker, clock: Clock): Promise<Result<void, DockerError>> {
  const pingDeadline = deadline(clock, PING_TIMEOUT_MS);
  const timeout = pingDeadline.reached.then((): never => {
    throw new Error(`no answer within ${PING_TIMEOUT_MS} ms`);
  });
  try {
    await Promise.race([docker.ping(), timeout]);
    return ok(undefined);
  } catch (err) {
    return fail(
      dockerFailure('docker_unavailable', `Docker is not reachable (${dockerMessage(err)}): is Docker installed and running, and DOCKER_HOST right?`),
    );
  } finally {
    pingDeadline.dispose();
  }
}

/** The image's own environment; a missing image is the user's to pull or build (Kandev never pulls). */
async function inspectImage(docker: Docker, image: string): Promise<Result<string[], DockerError>> {
  try {
    const info = await docker.getImage(image).inspect();
    return ok(info.Config?.Env ?? []);
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) {
      return fail(dockerFailure('image_missing', `the Docker image "${image}" is not on this machine: pull or build it first (Kandev never pulls images)`));
    }
    return fail(dockerFailure('docker_unavailable', `Docker could not inspect the image "${image}": ${dockerMessage(err)}`));
  }
}

interface Listening {
  innerPort: number;
  /** The container's exit status once it stops (null when Docker could not say). */
  waited: Promise<number | null>;
  closeLog(): void;
}

/** Attaches before starting, so no output is missed, then waits for agentctl's one listening line. */
async function startAndWaitForListening(container: Docker.Container, options: DockerTaskHostOptions): Promise<Result<Listening, DockerError>> {
  // Bounded, and a file that cannot be written never takes the backend down.
  const log = new RotatingFile(options.logFile, { maxBytes: options.logMaxBytes });
  const closeLog = () => void log.end();
  let stderrTail = '';
  try {
    // stdin too, through a hijacked connection this process keeps open but never writes to: when
    // the backend dies the connection closes, and agentctl sees end-of-file (containerEnv.ts).
    const stream = await container.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true });
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    container.modem.demuxStream(stream, stdout, stderr);
    const drained = new Promise<void>((resolve) => {
      stream.on('end', () => {
        stdout.end();
        stderr.end();
        resolve();
      });
    });
    stderr.on('data', (chunk: Buffer) => {
      log.write(chunk);
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    const clock = options.clock ?? systemClock;
    const listening = waitForListening(stdout, options.startTimeoutMs, clock);
    await container.start();
    // Asked after start (a wait on a created container could answer at once); "removed", because
    // the container is auto-removed and `exited` promises that nothing is left.
    const waited = container.wait({ condition: 'removed' }).then(
      (r: { StatusCode?: unknown }) => (typeof r?.StatusCode === 'number' ? r.StatusCode : null),
      () => null,
    );
    const outcome = await Promise.race([
      listening.outcome.then((o) => (o.kind === 'listening' ? o.port : ('timeout' as const))),
      waited.then(() => 'exited' as const),
    ]);
    listening.dispose();
    if (typeof outcome === 'number') return ok({ innerPort: outcome, waited, closeLog });
    // Its last words may still be in flight on the attach stream when the exit is reported.
    if (outcome === 'exited') {
      const drainDeadline = deadline(clock, DRAIN_MS);
      await Promise.race([drained, drainDeadline.reached]);
      drainDeadline.dispose();
    }
    const tail = stderrTail.trim().split('\n').slice(-3).join(' | ');
    const why = outcome === 'exited' ? 'agentctl exited before it listened' : `agentctl did not report listening within ${options.startTimeoutMs} ms`;
    closeLog();
    return fail(dockerFailure(outcome === 'exited' ? 'container_failed' : 'listen_timeout', tail ? `${why}; it said: ${tail}` : why));
  } catch (err) {
    closeLog();
    return fail(dockerFailure('container_failed', `Docker could not start the task container: ${dockerMessage(err)}`));
  }
}

async function publishedPort(container: Docker.Container): Promise<Result<number, DockerError>> {
  try {
    const info = await container.inspect();
    const port = Number(info.NetworkSettings.Ports?.[AGENTCTL_PORT_KEY]?.[0]?.HostPort);
    if (port > 0) return ok(port);
    return fail(dockerFailure('container_failed', 'Docker did not publish the agentctl port'));
  } catch (err) {
    return fail(dockerFailure('container_failed', `Docker could not inspect the task container: ${dockerMessage(err)}`));
  }
}

/** Docker's JSON error `message` when there is one, not the whole "(HTTP code 400) ..." wrapper. */
function dockerMessage(err: unknown): string {
  const json = (err as { json?: { message?: unknown } }).json;
  return typeof json?.message === 'string' ? json.message : messageOf(err);
}
