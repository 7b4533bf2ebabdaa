import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import type { Locale, ProgressSnapshot } from '@kandev/protocol';
import { testI18n } from '../../i18n/testing.js';
import { EMPTY_PROGRESS } from '../../lib/lsp/progress.js';
import type { LspStatus } from '../../lib/lsp/status.js';
import { LspStatusDetails } from './LspStatusDetails.js';
import { LspSummary } from './LspSummary.js';
import { statusView } from './statusView.js';

const noop = () => undefined;

async function render(locale: Locale, status: LspStatus, progress: ProgressSnapshot, now: number, language: 'kotlin' | 'go' = 'kotlin') {
  const i18n = await testI18n(locale);
  const view = statusView(status, progress, language, now);
  const html = renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <LspStatusDetails language={language} view={view} onStart={noop} onStop={noop} onRetry={noop} />
      <span id="summary">
        <LspSummary language={language} view={view} />
      </span>
    </I18nextProvider>,
  );
  const text = html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');
  return { view, html, text };
}

const starting: LspStatus = { state: 'starting', phase: 'awaitingInitialize', message: { key: 'message.launched' }, since: 10_000, generation: 1 };

describe('status surfaces (popover/drawer content)', () => {
  it("an untrusted workspace's ready server says whether it is off the network; a trusted one says nothing about it", async () => {
    const unavailable = await render('en', { state: 'ready', generation: 1, network: 'unavailable' }, EMPTY_PROGRESS, 0);
    expect(unavailable.html).toContain('data-network="unavailable"');
    expect(unavailable.text).toContain('this task host cannot take its language server off the network');
    const off = await render('pt-pt', { state: 'ready', generation: 1, network: 'off' }, EMPTY_PROGRESS, 0);
    expect(off.text).toContain('corre sem acesso à rede');
    const trusted = await render('en', { state: 'ready', generation: 1 }, EMPTY_PROGRESS, 0);
    expect(trusted.html).not.toContain('lsp-network');
    // Only while ready: a server that is starting or gone has no network to speak of yet.
    expect((await render('en', { ...starting, network: 'off' }, EMPTY_PROGRESS, 10_000)).html).not.toContain('lsp-network');
  });

  it('S39 a launched process waiting for initialize: distinct from ready, elapsed time, no ETA, Stop', async () => {
    const { view, text, html } = await render('en', starting, EMPTY_PROGRESS, 10_000 + 12_000);
    expect(view.elapsedMs).toBe(12_000);
    expect(view.ticking).toBe(true);
    expect(text).toContain('Server process started, waiting for initialize');
    expect(text).toContain('Elapsed: 12 seconds');
    expect(text).not.toMatch(/Ready:|remaining|ETA|left/i);
    expect(html).toContain('data-testid="lsp-stop"');
    expect(html).not.toContain('data-testid="lsp-long-running"');
  });

  it('S40 the same surface in zh-cn and pt-pt uses their units', async () => {
    expect((await render('zh-cn', starting, EMPTY_PROGRESS, 10_000 + 125_000)).text).toContain('已用时间：2 分钟 5 秒');
    expect((await render('pt-pt', starting, EMPTY_PROGRESS, 10_000 + 125_000)).text).toContain('Tempo decorrido: 2 minutos e 5 segundos');
  });

  it('S41 after 60 s the Kotlin notice names the Gradle import and Stop stays; other languages get the generic notice', async () => {
    const kotlin = await render('en', starting, EMPTY_PROGRESS, 10_000 + 61_000);
    expect(kotlin.text).toContain('Initialization is taking longer than usual (1 minute 1 second so far)');
    expect(kotlin.text).toContain('Gradle project');
    expect(kotlin.html).toContain('data-testid="lsp-stop"');
    const go = await render('en', starting, EMPTY_PROGRESS, 10_000 + 61_000, 'go');
    expect(go.text).toContain('taking longer than usual');
    expect(go.text).not.toContain('Gradle');
  });

  it('S42 initialize work: latest server text, clamped percentage and elapsed time while starting; still shown when ready', async () => {
    const progress: ProgressSnapshot = {
      active: [{ token: 'kandev/initialize', title: 'Importing Gradle project', message: 'Resolving :lib', percentage: 100, startedAt: 11_000 }],
    };
    const { text } = await render('en', starting, progress, 41_000);
    expect(text).toContain('Importing Gradle project');
    expect(text).toContain('Resolving :lib');
    expect(text).toContain('100%');
    expect(text).toContain('Running for 30 seconds');
    const ready = await render('en', { state: 'ready', generation: 1, since: 40_000 }, progress, 41_000);
    expect(ready.text).toContain('Ready: the server answered initialize.');
    expect(ready.text).toContain('Resolving :lib');
    expect(ready.view.elapsedMs).toBeUndefined();
  });

  it('S43 an indeterminate item shows activity and elapsed time, no percentage and no ETA', async () => {
    const progress: ProgressSnapshot = { active: [{ token: 3, title: 'Indexing', startedAt: 0 }] };
    const { text, html } = await render('en', { state: 'ready', generation: 1 }, progress, 7_000);
    expect(html).toContain('data-testid="lsp-progress-indeterminate"');
    expect(html).toContain('data-testid="lsp-summary-activity"');
    expect(text).toContain('Running for 7 seconds');
    expect(text).not.toMatch(/\d+ ?%|remaining/);
  });

  it('S44 the oldest active item plus the count of the others', async () => {
    const progress: ProgressSnapshot = {
      active: [
        { token: 1, title: 'Scanning', percentage: 10, startedAt: 0 },
        { token: 'b', title: 'Building index', percentage: 60, startedAt: 1 },
      ],
    };
    const { text } = await render('en', { state: 'ready', generation: 1 }, progress, 2_000);
    expect(text).toContain('Scanning');
    expect(text).toContain('10%');
    expect(text).toContain('and 1 more active work item');
    expect(text).not.toContain('Building index');
    expect(text).not.toContain('35%');
    expect((await render('zh-cn', { state: 'ready', generation: 1 }, progress, 2_000)).text).toContain('另有 1 项进行中的工作');
  });

  it('S45 finished work is "server-reported", never "indexed"; S47 nothing reported says so', async () => {
    const finished = await render('en', { state: 'ready', generation: 1 }, { active: [], lastEnded: { title: 'Indexing', endedAt: 5 } }, 9);
    expect(finished.text).toContain('Server-reported work finished (Indexing). This does not mean every cross-file reference is available.');
    const none = await render('en', { state: 'ready', generation: 1 }, EMPTY_PROGRESS, 9);
    expect(none.text).toContain('the server has not reported any ongoing analysis');
    expect(none.text).not.toMatch(/index/i);
    expect(none.view.ticking).toBe(false);
  });

  it('S46 off or failed surfaces show no server work at all', async () => {
    const progress: ProgressSnapshot = { active: [{ token: 1, title: 'Stale', startedAt: 0 }] };
    for (const status of [
      { state: 'off', generation: 2 },
      { state: 'error', message: { key: 'close.4006', params: { language: 'kotlin' } }, generation: 2 },
    ] as LspStatus[]) {
      const { text, html } = await render('en', status, progress, 1);
      expect(text).not.toContain('Stale');
      expect(html).not.toContain('data-testid="lsp-progress"');
    }
  });

  it('S03 Kotlin 4007: unavailable, manual-setup guidance, Retry, and never an install', async () => {
    const { text, html } = await render(
      'en',
      { state: 'unavailable', message: { key: 'close.4007Kotlin', params: { language: 'kotlin' } }, guidance: 'kotlinManualSetup', generation: 1 },
      EMPTY_PROGRESS,
      0,
    );
    expect(text).toContain('kotlin-lsp is not installed on the task host, and Kandev never installs it automatically.');
    expect(text).toContain("put kotlin-lsp on the task host's PATH");
    expect(html).toContain('data-testid="lsp-retry"');
    expect(html).not.toContain('lsp-open-settings');
  });

  it('S04 4001 in pt-pt: localized message, enable-auto-install guidance with a link to Editors settings', async () => {
    const { text, html } = await render(
      'pt-pt',
      { state: 'unavailable', message: { key: 'close.4001', params: { language: 'kotlin' } }, guidance: 'enableAutoInstall', generation: 1 },
      EMPTY_PROGRESS,
      0,
    );
    expect(text).toContain('O servidor de linguagem Kotlin não está instalado no anfitrião da tarefa');
    expect(text).toContain('Ative a instalação automática');
    expect(html).toContain('href="#/settings"');
  });

  it("S12 the installer error is shown as written; S29 so is the server's initialize error.message", async () => {
    const failed = await render(
      'en',
      { state: 'error', message: { text: 'go: module lookup disabled by GOPROXY=off' }, generation: 1 },
      EMPTY_PROGRESS,
      0,
      'go',
    );
    expect(failed.text).toContain('go: module lookup disabled by GOPROXY=off');
    const installing = await render(
      'en',
      {
        state: 'installing',
        message: { key: 'message.installing', params: { language: 'go' } },
        detail: 'go: downloading golang.org/x/tools/gopls v0.20.0',
        since: 0,
        generation: 1,
      },
      EMPTY_PROGRESS,
      3_000,
      'go',
    );
    expect(installing.text).toContain('Installer output go: downloading golang.org/x/tools/gopls v0.20.0');
    expect(installing.text).toContain('Elapsed: 3 seconds');
  });
});
