/**
 * Restart-to-ready (`npm run bench -- restart`): the backend is SIGKILLed with a leased, warmed-up
 * typescript-language-server, and the clock runs from starting the next backend on the same
 * KANDEV_HOME until the editor's first hover is answered. Warm: the task host is re-adopted and the
 * lease hint resumes the very same server (ready resumed, documents reopened, synchronized, hover).
 * Cold: the same restart with KANDEV_RESTART_GRACE_MS=0 (the task host went with the backend), so
 * the session, the server and its project load start over (session start, launch, initialize,
 * didOpen, hover) — what every restart cost before.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyDemoWorkspace, startStack, type RunningStack } from '../test/support/stack.js';
import { summarize, type LatencySummary } from './stats.js';
import { openProduct } from './transport.js';
import type { WsPeer } from './peers.js';

const FILE = 'src/main.ts';

async function openAndHover(peer: WsPeer, workspaceUri: string, resumed: boolean): Promise<void> {
  const uri = `${workspaceUri}/${FILE}`;
  const text = readFileSync(new URL(uri), 'utf8');
  if (!resumed) await peer.initialize(workspaceUri);
  peer.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text } });
  if (resumed) {
    const synchronized = peer.nextFrame((m) => m.status === 'synchronized');
    peer.send({ control: 'attachment-ready' });
    await synchronized;
  }
  // `count` in `console.log(count)`: answered by tsserver once its project is loaded.
  const line = text.split('\n').findIndex((l) => l.includes('log(count)'));
  const reply = await peer.request('textDocument/hover', { textDocument: { uri }, position: { line, character: 14 } });
  if (reply.result === null || reply.error) throw new Error(`hover not answered: ${JSON.stringify(reply).slice(0, 200)}`);
}

async function kill(stack: RunningStack): Promise<void> {
  const died = new Promise((resolve) => stack.process.once('exit', resolve));
  stack.process.kill('SIGKILL');
  await died;
}

/** One restart: lease warmed on a first backend, SIGKILL, then the next backend timed to the first hover. */
async function restartOnce(warm: boolean): Promise<number> {
  const home = mkdtempSync(join(tmpdir(), 'kandev-bench-restart-'));
  const env = { KANDEV_HOME: home, KANDEV_LOG_STDERR: '0', KANDEV_RESTART_GRACE_MS: warm ? '60000' : '0' };
  const stacks: RunningStack[] = [];
  try {
    const first = await startStack(env);
    stacks.push(first);
    const task = await first.createTask({ title: 'bench restart', workspace: copyDemoWorkspace() });
    const sessionId = (await first.startSession(task.id)).id;
    const { peer, ready } = await openProduct(first, sessionId, 'typescript');
    await openAndHover(peer, ready.workspaceUri, false);
    await kill(first);

    const start = performance.now();
    const next = await startStack(env);
    stacks.push(next);
    if (warm) {
      const again = await openProduct(next, sessionId, 'typescript', ready.lease);
      if (!again.ready.resumed) throw new Error('the lease was not resumed');
      await openAndHover(again.peer, again.ready.workspaceUri, true);
      await again.peer.close();
    } else {
      const session = (await next.startSession(task.id)).id;
      const fresh = await openProduct(next, session, 'typescript');
      await openAndHover(fresh.peer, fresh.ready.workspaceUri, false);
      await fresh.peer.close();
    }
    return performance.now() - start;
  } finally {
    for (const stack of stacks) await stack.stop().catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
  }
}

export async function restartBench(rounds: number): Promise<{ warm: LatencySummary; cold: LatencySummary }> {
  const warm: number[] = [];
  const cold: number[] = [];
  for (let i = 0; i < rounds; i++) {
    warm.push(await restartOnce(true));
    cold.push(await restartOnce(false));
  }
  return { warm: summarize(warm), cold: summarize(cold) };
}
