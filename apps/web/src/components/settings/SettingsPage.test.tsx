import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { testI18n } from '../../i18n/testing.js';
import { ServicesProvider } from '../../services/ServicesContext.js';
import { fakeServices } from '../../services/testing.js';
import { SettingsPage } from './SettingsPage.js';

async function render(services: ReturnType<typeof fakeServices>) {
  return renderToStaticMarkup(
    <I18nextProvider i18n={await testI18n('pt-pt')}>
      <ServicesProvider services={services}>
        <SettingsPage />
      </ServicesProvider>
    </I18nextProvider>,
  );
}

describe('settings page with fake services', () => {
  it('shows the settings the store holds; the language catalog is fetched from an effect', async () => {
    const services = fakeServices({ settings: { locale: 'pt-pt', show_status_bar: false } });
    const html = await render(services);
    expect(html).toContain('data-testid="settings-page"');
    expect(html).toMatch(/data-testid="settings-locale"[^>]*>/);
    expect(html).toMatch(/<option value="pt-pt" selected="">/);
    expect(html).not.toContain('data-testid="language-card"');
    expect(services.calls).toEqual([]);
  });
});
