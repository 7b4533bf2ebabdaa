/** How to reach one session's agentctl: its HTTP base URL and the session's bearer token. */
export interface TaskHostEndpoint {
  /** e.g. http://127.0.0.1:41234 (loopback only: a published port or a child process). */
  baseUrl: string;
  token: string;
}
