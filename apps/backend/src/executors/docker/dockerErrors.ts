/**
 * Why a Local Docker task host could not start. The code is for logs and tests; the message is
 * what a person reads on the failed session, so it says what to do (start Docker, build the image).
 */
export type DockerErrorCode =
  'image_not_configured' | 'mount_missing' | 'runtime_missing' | 'docker_unavailable' | 'image_missing' | 'container_failed' | 'listen_timeout' | 'unreachable';

export interface DockerError {
  code: DockerErrorCode;
  message: string;
}

export function dockerFailure(code: DockerErrorCode, message: string): DockerError {
  return { code, message };
}

/**
 * The executor-level code the session service understands (bad input vs a host that cannot start).
 * Structurally an ExecutorError (../executor.ts), spelled out so docker/ never imports its parent.
 */
export function toExecutorError(error: DockerError): { code: 'workspace_invalid' | 'unreachable' | 'start_failed'; message: string } {
  switch (error.code) {
    case 'mount_missing':
      return { code: 'workspace_invalid', message: error.message };
    case 'unreachable':
      return { code: 'unreachable', message: error.message };
    default:
      return { code: 'start_failed', message: error.message };
  }
}
