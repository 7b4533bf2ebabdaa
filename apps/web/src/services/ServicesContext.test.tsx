import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ServicesProvider, useServices } from './ServicesContext.js';
import { fakeServices } from './testing.js';
import { useSettings } from './useSettings.js';

function Locale() {
  const settings = useSettings();
  return <span data-locale={settings?.locale ?? 'unloaded'} />;
}

function Bare() {
  useServices();
  return null;
}

describe('ServicesProvider', () => {
  it('components read the services handed to the provider, fakes in tests', () => {
    expect(
      renderToStaticMarkup(
        <ServicesProvider services={fakeServices({ settings: { locale: 'zh-cn' } })}>
          <Locale />
        </ServicesProvider>,
      ),
    ).toBe('<span data-locale="zh-cn"></span>');
    expect(
      renderToStaticMarkup(
        <ServicesProvider services={fakeServices()}>
          <Locale />
        </ServicesProvider>,
      ),
    ).toBe('<span data-locale="unloaded"></span>');
  });

  it('a component outside a provider is a wiring mistake that fails loudly', () => {
    expect(() => renderToStaticMarkup(<Bare />)).toThrow('useServices() outside a ServicesProvider');
  });
});
