import type { Locale, WorkspaceEventFrame } from '@kandev/protocol';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { testI18n } from '../../i18n/testing.js';
import { LiveState } from '../../lib/live/liveState.js';
import { ChangesPanel } from './ChangesPanel.js';

/** The panel as the frames of the events stream leave it. */
async function render(frames: WorkspaceEventFrame[], options: { readOnly?: boolean; locale?: Locale } = {}) {
  const state = new LiveState();
  for (const frame of frames) state.apply(frame);
  const i18n = await testI18n(options.locale ?? 'en');
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <ChangesPanel live={state.getSnapshot()} onOpen={options.readOnly ? undefined : () => undefined} />
    </I18nextProvider>,
  );
}

const GIT: WorkspaceEventFrame = {
  type: 'git',
  state: {
    available: true,
    branch: 'main',
    head: 'abc',
    files: [
      { path: 'src/old.ts', status: 'deleted', added: 0, deleted: 4 },
      { path: 'src/a.ts', status: 'modified', added: 2, deleted: 1 },
      { path: 'logo.png', status: 'added' },
      { path: 'src/b.ts', status: 'renamed', from: 'src/bee.ts', added: 0, deleted: 0 },
    ],
  },
};

describe('Changes panel fed by events-stream frames', () => {
  it('waits for the first git state, then lists changes by status with line counts in figures and words', async () => {
    expect(await render([])).toContain('Waiting for the workspace&#x27;s git state');
    const html = await render([GIT]);
    expect([...html.matchAll(/data-testid="change-row" data-path="([^"]+)"/g)].map((m) => m[1])).toEqual(['src/a.ts', 'src/b.ts', 'logo.png', 'src/old.ts']);
    expect(html).toContain('On main');
    expect(html).toContain('+2</span> <span class="lines-deleted">−1');
    expect(html).toContain('Lines added: 2, deleted: 1');
    expect(html).toContain('renamed from src/bee.ts');
    // A binary file has no counts.
    expect(html).toMatch(/data-path="logo.png"[^]*?binary/);
    expect(html).toContain('aria-label="4 changed files"');
    expect(html.match(/<button type="button" class="change-row/g)).toHaveLength(4);
  });

  it('the list is one Tab stop (the first row, or the one shown) and says how its arrow keys move', async () => {
    const html = await render([GIT]);
    expect([...html.matchAll(/data-path="([^"]+)"[^>]*tabindex="(-?\d)"/g)].map((m) => `${m[1]}:${m[2]}`)).toEqual([
      'src/a.ts:0',
      'src/b.ts:-1',
      'logo.png:-1',
      'src/old.ts:-1',
    ]);
    expect(html).toMatch(/<ul class="changes-list" aria-label="Changes" aria-describedby="([^"]+)"/);
    expect(html).toContain('Up and down arrows move between changes; Enter shows one.');
    expect(await render([GIT], { readOnly: true })).not.toContain('tabindex');
  });

  it('the phone viewer lists them read-only (nothing to press)', async () => {
    const html = await render([GIT], { readOnly: true });
    expect(html.match(/<div class="change-row/g)).toHaveLength(4);
    expect(html).not.toContain('<button type="button" class="change-row');
  });

  it('a clean repository, and a workspace that is not one, say so', async () => {
    expect(await render([{ type: 'git', state: { available: true, branch: null, head: 'abc', files: [] } }])).toContain('No changes against HEAD.');
    const html = await render([GIT, { type: 'git', state: { available: false, reason: 'not_a_repository' } }]);
    expect(html).toContain('data-reason="not_a_repository"');
    expect(html).toContain('This workspace is not a git repository');
    expect(html).not.toContain('change-row');
  });

  it('polling (the watch limit) shows why and the fix in every locale', async () => {
    const polling: WorkspaceEventFrame = { type: 'watch', mode: 'polling', reason: 'watch_limit' };
    expect(await render([polling])).toContain('fs.inotify.max_user_watches');
    for (const locale of ['pt-pt', 'zh-cn', 'pseudo'] as const) {
      const html = await render([polling], { locale });
      expect(html, locale).toContain('data-testid="watch-polling"');
      expect(html, locale).toContain('fs.inotify.max_user_watches');
    }
    expect(await render([polling, { type: 'watch', mode: 'native' }])).not.toContain('watch-polling');
  });
});
