import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { testI18n } from '../../i18n/testing.js';
import { ServicesProvider } from '../../services/ServicesContext.js';
import { fakeServices } from '../../services/testing.js';
import { AppStatusBar } from './AppStatusBar.js';

async function render(services: ReturnType<typeof fakeServices>) {
  const i18n = await testI18n('en');
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <ServicesProvider services={services}>
        <AppStatusBar />
      </ServicesProvider>
    </I18nextProvider>,
  );
}

describe('application status bar with fake services', () => {
  it('shows nothing until the settings are loaded, and nothing when Show status bar is off', async () => {
    expect(await render(fakeServices())).toBe('');
    expect(await render(fakeServices({ settings: { show_status_bar: false } }))).toBe('');
  });

  it('S52 follows the active editor in the order the settings store holds', async () => {
    const services = fakeServices({ settings: { show_status_bar: true, status_bar_order: ['cursor', 'file', 'lsp'] } });
    services.activeEditor.set({ sessionId: 's-1', path: 'src/main.ts', cursor: { line: 3, column: 7 } });
    const html = await render(services);
    expect(html).toContain('data-order="cursor,file,lsp"');
    expect(html).toContain('data-testid="status-bar-file"');
    expect(html.indexOf('data-item-id="cursor"')).toBeLessThan(html.indexOf('data-item-id="file"'));
  });
});
