import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { RotatingFile } from '@kandev/node-transport';
import { fail, messageOf, ok, type Result } from '../../base/result.js';
import { OWNER_LABEL } from './containerSpec.js';
import { dockerFailure, type DockerError } from './dockerErrors.js';
import type { DockerTaskHost } from './dockerTaskHost.js';

export interface AdoptContainerOptions {
  containerId: string;
  owner: string;
  stopGraceMs: number;
  logFile: string;
  logMaxBytes?: number;
}

/**
 * Takes over a task container a previous backend of this home started (docs/restarts.md): it must
 * still run and carry this owner's label. Its output is followed into the session's log again, its
 * end is awaited as for a container this process started, and stopping it stops it for good.
 */
export async function adoptDockerTaskHost(docker: Docker, options: AdoptContainerOptions): Promise<Result<Omit<DockerTaskHost, 'port'>, DockerError>> {
  const container = docker.getContainer(options.containerId);
  let info: Docker.ContainerInspectInfo;
  try {
    info = await container.inspect();
  } catch (err) {
    return fail(dockerFailure('container_failed', `the task container is gone: ${messageOf(err)}`));
  }
  if (!info.State?.Running || info.Config?.Labels?.[OWNER_LABEL] !== options.owner) {
    return fail(dockerFailure('container_failed', 'the task container is not running, or not this backend’s'));
  }
  const log = new RotatingFile(options.logFile, { maxBytes: options.logMaxBytes });
  try {
    // Output only: its stdin closed with the backend that started it, which is what lets it know
    // it may be orphaned; from now on this backend's link says it is owned.
    const stream = await container.attach({ stream: true, stdout: true, stderr: true, logs: false });
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    container.modem.demuxStream(stream, stdout, stderr);
    stdout.resume();
    stderr.on('data', (chunk: Buffer) => log.write(chunk));
  } catch {
    // Its logs are lost, its servers are not: adoption goes on.
  }
  const remove = () =>
    container.remove({ force: true }).then(
      () => undefined,
      () => undefined,
    );
  const exited = container
    .wait({ condition: 'removed' })
    .then(
      (r: { StatusCode?: unknown }) => (typeof r?.StatusCode === 'number' ? r.StatusCode : null),
      () => null,
    )
    .then(async (code) => {
      await remove();
      void log.end();
      return { code };
    });
  let stopping: Promise<{ code: number | null; escalated: boolean }> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await container.stop({ t: Math.ceil(options.stopGraceMs / 1000) }).catch(() => undefined);
      const exit = await exited;
      return { ...exit, escalated: exit.code === 137 };
    })());
  return ok({ containerId: container.id, exited, stop });
}
