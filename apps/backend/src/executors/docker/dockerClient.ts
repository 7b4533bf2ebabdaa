import Docker from 'dockerode';

/**
 * The Docker Engine client for the configured DOCKER_HOST. A unix socket is passed explicitly (the
 * backend's config may come from somewhere other than process.env, as in tests); any other form
 * (tcp with TLS, ssh, npipe) is left to dockerode, which reads DOCKER_HOST, DOCKER_TLS_VERIFY and
 * DOCKER_CERT_PATH itself.
 */
export function createDockerClient(dockerHost: string | undefined): Docker {
  if (dockerHost?.startsWith('unix://')) {
    // `host` and `protocol` reset so a tcp DOCKER_HOST in process.env cannot win over the socket.
    return new Docker({ socketPath: dockerHost.slice('unix://'.length) || '/var/run/docker.sock', host: undefined, protocol: 'http' });
  }
  return new Docker();
}
