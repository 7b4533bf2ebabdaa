/**
 * Helpers for the suites that revoke a page's sign-in: the backend keeps its token in the file under
 * KANDEV_HOME (no KANDEV_TOKEN), so deleting that file and restarting on the same home and port
 * (the page's origin) gives a new token the open page does not have.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACCESS_TOKEN_FILE, API_ROUTES, type Session, type Task } from '@kandev/protocol';
import { copyDemoWorkspace, taskPath, type RunningStack } from './stack.js';

export { freePort } from './ports.js';

/** The stack's env with the token in the file under KANDEV_HOME (an empty KANDEV_TOKEN is no token). */
export function fileTokenEnv(home: string, port: number): Record<string, string> {
  return { KANDEV_HOME: home, KANDEV_PORT: String(port), KANDEV_TOKEN: '', KANDEV_RESTART_GRACE_MS: '90000', KANDEV_LOG_STDERR: '0' };
}

export const tokenIn = (home: string) => readFileSync(join(home, ACCESS_TOKEN_FILE), 'utf8').trim();

export async function callWithToken<T>(stack: RunningStack, token: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${stack.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} -> ${res.status}`);
  return (await res.json()) as T;
}

/** A running Local PC session on a copy of the demo workspace, made with `token`. */
export async function demoSession(stack: RunningStack, token: string): Promise<string> {
  const task = await callWithToken<Task>(stack, token, API_ROUTES.tasks, {
    title: 'Access',
    executor: 'local_pc',
    repositories: [{ path: copyDemoWorkspace() }],
    env: { PATH: taskPath() },
  });
  return (await callWithToken<Session>(stack, token, `/api/tasks/${task.id}/sessions`, {})).id;
}
