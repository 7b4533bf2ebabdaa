import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { testI18n } from '../../i18n/testing.js';
import { ServicesProvider } from '../../services/ServicesContext.js';
import { fakeServices } from '../../services/testing.js';
import { SearchPanel } from './SearchPanel.js';

describe('search panel with fake services', () => {
  it('starts idle with its toggles off; searching happens from the debounced effect only', async () => {
    const services = fakeServices({ api: { searchStream: async () => ({ truncated: false, engine: 'walker' }) } });
    const html = renderToStaticMarkup(
      <I18nextProvider i18n={await testI18n('en')}>
        <ServicesProvider services={services}>
          <SearchPanel sessionId="s-1" onOpenHit={() => undefined} />
        </ServicesProvider>
      </I18nextProvider>,
    );
    expect(html).toContain('data-search-state="idle"');
    expect(html).toMatch(/data-testid="search-case"[^>]*aria-pressed="false"|aria-pressed="false"[^>]*data-testid="search-case"/);
    expect(html).not.toContain('data-testid="search-hit"');
    expect(services.calls).toEqual([]);
  });
});
