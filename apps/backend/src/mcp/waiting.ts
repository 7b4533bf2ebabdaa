import { after, systemClock, type Clock } from '@kandev/kit';
import type { AgentLspClient } from './agentLspClient.js';
import { toolCall } from './toolCall.js';
import { ToolError } from './toolError.js';

/** How long a whole-workspace tool waits for a server's indexing to end before it says so. */
export const INDEXING_WAIT_MS = 20_000;

/** Resolves when `done()` holds (checked on every publication or progress change), or at `ms` on `clock`. */
export function until(client: AgentLspClient, done: () => boolean, ms: number, clock: Clock = systemClock): Promise<boolean> {
  if (done()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const stop = client.onActivity(() => {
      if (!done() && !client.ended) return;
      finish(done());
    });
    const timer = after(clock, ms, () => finish(done()));
    function finish(value: boolean): void {
      timer.dispose();
      stop();
      resolve(value);
    }
  });
}

/**
 * While the server reports indexing, an answer about the whole workspace would be partial and read
 * as complete ("no references": an agent deletes code). Wait, bounded, then refuse distinctly.
 */
export async function afterIndexing(client: AgentLspClient, clock: Clock, ms = INDEXING_WAIT_MS): Promise<void> {
  if (client.progress.size === 0) return;
  // Said before the wait, so a client that asked for progress knows why the answer is slow.
  const working = [...new Set(client.progress.values())].join(', ');
  toolCall.getStore()?.note(`waiting up to ${Math.round(ms / 1000)} s for the ${client.language} server to finish indexing (${working})`);
  // A lease that ends meanwhile stops the wait too: the request then fails with why it ended.
  if (await until(client, () => client.progress.size === 0 || client.ended, ms, clock)) return;
  const titles = [...new Set(client.progress.values())].join(', ');
  throw new ToolError(`indexing: the ${client.language} server is still indexing (${titles}); nothing was answered, call again shortly`, 'indexing');
}
