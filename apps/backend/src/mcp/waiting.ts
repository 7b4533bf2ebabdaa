import type { AgentLspClient } from './agentLspClient.js';
import { ToolError } from './toolError.js';

/** How long a whole-workspace tool waits for a server's indexing to end before it says so. */
export const INDEXING_WAIT_MS = 20_000;

/** Resolves when `done()` holds (checked on every publication or progress change), or at `ms`. */
export function until(client: AgentLspClient, done: () => boolean, ms: number): Promise<boolean> {
  if (done()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const stop = client.onActivity(() => {
      if (!done() && !client.ended) return;
      finish(done());
    });
    const timer = setTimeout(() => finish(done()), ms);
    function finish(value: boolean): void {
      clearTimeout(timer);
      stop();
      resolve(value);
    }
  });
}

/**
 * While the server reports indexing, an answer about the whole workspace would be partial and read
 * as complete ("no references": an agent deletes code). Wait, bounded, then refuse distinctly.
 */
export async function afterIndexing(client: AgentLspClient, ms = INDEXING_WAIT_MS): Promise<void> {
  if (await until(client, () => client.progress.size === 0, ms)) return;
  const titles = [...new Set(client.progress.values())].join(', ');
  throw new ToolError(`indexing: the ${client.language} server is still indexing (${titles}); nothing was answered, call again shortly`, 'indexing');
}
