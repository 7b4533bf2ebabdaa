import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkspaceEventFrame } from '@kandev/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/build.js';
import { prerequisite } from '../support/env.js';
import { EventsClient } from '../support/eventsClient.js';
import { startLeaseBackend, startSession, type LeaseBackend } from './lease-support.js';

/**
 * The OS watch limit, for real: agentctl runs in a user namespace of its own whose inotify watch
 * limit (`/proc/sys/user/max_inotify_watches`, counted per user namespace) is lowered below what the
 * workspace needs. @parcel/watcher then fails with ENOSPC as it would on a machine whose
 * `fs.inotify.max_user_watches` is used up, and nothing outside that namespace is touched.
 */
const WATCH_LIMIT = 8;
const FOLDERS = 40;

function userNamespaces(): boolean {
  try {
    execFileSync('unshare', ['--user', '--map-root-user', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const run = prerequisite(userNamespaces(), 'user namespaces (util-linux unshare --user --map-root-user)');

describe.runIf(run)('the live workspace when the inotify watch limit is used up', () => {
  let stack: LeaseBackend;
  let sessionId: string;
  const workspace = mkdtempSync(join(tmpdir(), 'kandev-watch-limit-'));

  beforeAll(async () => {
    for (let i = 0; i < FOLDERS; i++) mkdirSync(join(workspace, `pkg${i}`));
    writeFileSync(join(workspace, 'pkg0/open.ts'), 'export const one = 1;\n');
    const bundle = join(repoRoot, 'apps/agentctl/dist/agentctl.mjs');
    stack = await startLeaseBackend({
      KANDEV_AGENTCTL_COMMAND: JSON.stringify([
        'unshare',
        '--user',
        '--map-root-user',
        'sh',
        '-c',
        `echo ${WATCH_LIMIT} > /proc/sys/user/max_inotify_watches && exec node "$0"`,
        bundle,
      ]),
    });
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
