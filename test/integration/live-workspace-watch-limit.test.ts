import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkspaceEventFrame } from '@kandev/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsClient } from '../support/eventsClient.js';
import { agentctlWithWatchLimit, canLimitWatches } from '../support/watchLimit.js';
import { startLeaseBackend, startSession, type LeaseBackend } from './lease-support.js';

/**
 * The inotify watch limit used up for real (agentctl in a user namespace of its own, see
 * test/support/watchLimit.ts): the native watcher fails with ENOSPC, agentctl stays up and polls
 * what the page has in view, and the page is told why.
 */
const WATCH_LIMIT = 8;
const FOLDERS = 40;
const run = canLimitWatches();

describe.runIf(run)('the live workspace when the inotify watch limit is used up', () => {
  let stack: LeaseBackend;
  let sessionId: string;
  const workspace = mkdtempSync(join(tmpdir(), 'kandev-watch-limit-'));

  beforeAll(async () => {
    for (let i = 0; i < FOLDERS; i++) mkdirSync(join(workspace, `pkg${i}`));
    writeFileSync(join(workspace, 'pkg0/open.ts'), 'export const one = 1;\n');
    stack = await startLeaseBackend(agentctlWithWatchLimit(WATCH_LIMIT));
    const task = await stack.api('POST', '/api/tasks', { title: 'watch limit', executor: 'local_pc', repositories: [{ path: workspace }] });
    sessionId = await startSession(stack, task.json.id);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('agentctl stays up, tells the page it polls because of the watch limit, and polls what the page has in view', async () => {
    const page = new EventsClient(stack.url, sessionId);
    const watch = await page.waitFor((f) => f.type === 'watch');
    expect(watch).toEqual({ type: 'watch', mode: 'polling', reason: 'watch_limit' });
    page.send({ type: 'in_view', files: ['pkg0/open.ts'], folders: ['', 'pkg1'] });
    // A poll's first look is its baseline, and when it happens is agentctl's business: the agent
    // keeps writing (as agents do) until the page hears of the open file and of a new file in the
    // expanded folder. Nothing outside the view is ever reported.
    const heard = new Set<string>();
    const hears = (f: WorkspaceEventFrame) => {
      if (f.type === 'files') for (const change of f.changes) heard.add(`${change.kind} ${change.path}`);
      return heard.has('changed pkg0/open.ts') && [...heard].some((h) => h.startsWith('created pkg1/new-'));
    };
    let round = 0;
    const agent = setInterval(() => {
      round += 1;
      writeFileSync(join(workspace, 'pkg0/open.ts'), `export const one = ${round};\n`.padEnd(30 + round, ' '));
      writeFileSync(join(workspace, `pkg1/new-${round}.ts`), 'new\n');
      writeFileSync(join(workspace, `pkg5/unseen-${round}.ts`), 'unseen\n');
    }, 300);
    try {
      await page.waitFor(hears);
    } finally {
      clearInterval(agent);
    }
    expect([...heard].filter((h) => h.includes('pkg5'))).toEqual([]);
    // Still one task host, still serving the files API.
    const read = await stack.api('GET', `/api/sessions/${sessionId}/file?path=pkg0/open.ts`);
    expect(read.status).toBe(200);
    page.close();
  }, 60_000);
});
