import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { testI18n } from '../../i18n/testing.js';
import { ServicesProvider } from '../../services/ServicesContext.js';
import { fakeServices } from '../../services/testing.js';
import { DesktopSession } from './DesktopSession.js';
import { PhoneSession } from './PhoneSession.js';
import { SessionView } from './SessionView.js';

async function render(node: React.ReactNode, services = fakeServices()) {
  const i18n = await testI18n('en');
  const html = renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <ServicesProvider services={services}>{node}</ServicesProvider>
    </I18nextProvider>,
  );
  return { html, services };
}

// Rendering only (no effect runs here): what an unsupported executor leads to is proven in the
// browser against the real backend (s26-unsupported-executor.test.ts).
describe('session views with fake services: nothing is created during render', () => {
  it('a session view mounts nothing that lists files or opens /lsp until its session and task are known', async () => {
    const { html, services } = await render(<SessionView sessionId="s-1" />);
    expect(html).toContain('data-testid="session-view" data-session-id="s-1"');
    expect(html).toContain('data-testid="session-header"');
    expect(html).not.toContain('data-testid="editor"');
    expect(html).not.toContain('data-testid="file-tree"');
    // The session and task are read in an effect, never while rendering.
    expect(services.calls).toEqual([]);
    expect(services.left).toEqual([]);
  });

  it('the desktop editor waits for Monaco, which it asks for in an effect; no session scope or connection is made by rendering', async () => {
    let asked = 0;
    const services = fakeServices({
      loadMonaco: () => {
        asked++;
        return new Promise(() => undefined);
      },
    });
    const { html } = await render(<DesktopSession sessionId="s-1" />, services);
    expect(html).toContain('role="status"');
    expect(asked).toBe(0);
    expect(services.calls).toEqual([]);
  });

  it('S58 a phone gets the read-only viewer: a Files tree and no editor, and no files are listed during render', async () => {
    const { html, services } = await render(<PhoneSession sessionId="s-1" />, fakeServices({ api: { listFiles: async () => [] } }));
    expect(html).toContain('data-testid="file-tree"');
    expect(html).not.toContain('data-testid="editor"');
    expect(services.calls).toEqual([]);
  });
});
