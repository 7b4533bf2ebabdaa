import type { Clock } from '@kandev/kit';
import { OutlineFeed, type OutlineState, type OutlineWorkspace } from './outlineFeed.js';
import type { EditingRegistry } from './registry.js';

/**
 * The window's outline feeds, one per (session, file) however many views show it (the Outline
 * panel and the breadcrumbs share one): made on the first acquire, disposed with the last release.
 */
export class OutlineFeeds {
  private readonly feeds = new Map<string, { feed: OutlineFeed; workspace: OutlineWorkspace }>();

  constructor(private readonly editing: EditingRegistry) {}

  acquire(workspace: OutlineWorkspace, path: string, clock: Clock, listener: (state: OutlineState) => void): { feed: OutlineFeed; release(): void } {
    const key = `${workspace.sessionId}\u0000${path}`;
    let entry = this.feeds.get(key);
    if (!entry || entry.workspace !== workspace) {
      entry?.feed.dispose();
      entry = { feed: new OutlineFeed(this.editing, workspace, path, clock), workspace };
      this.feeds.set(key, entry);
    }
    const { feed } = entry;
    feed.listeners.add(listener);
    return {
      feed,
      release: () => {
        feed.listeners.delete(listener);
        if (feed.listeners.size === 0 && this.feeds.get(key)?.feed === feed) {
          this.feeds.delete(key);
          feed.dispose();
        }
      },
    };
  }
}
