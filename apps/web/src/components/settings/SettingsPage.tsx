import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LanguageCatalogEntry } from '@kandev/protocol';
import { useSettings } from '../../services/useSettings.js';
import { useServices } from '../../services/ServicesContext.js';
import { languageCards } from '../../lib/settings/languageCatalog.js';
import { GeneralSettings } from './GeneralSettings.js';
import { LanguageCardView } from './LanguageCard.js';
import type { SaveSettings } from './saveSettings.js';

type Catalog = { state: 'loading' } | { state: 'error' } | { state: 'loaded'; entries: Array<Partial<LanguageCatalogEntry>> };

/** Settings: General (language, status location, status bar) and Editors (one card per language). */
export function SettingsPage() {
  const { t } = useTranslation();
  const settings = useSettings();
  const { api, settings: settingsStore } = useServices();
  const [catalog, setCatalog] = useState<Catalog>({ state: 'loading' });
  const [result, setResult] = useState<'saved' | 'failed' | undefined>();

  const loadCatalog = useCallback(() => {
    setCatalog({ state: 'loading' });
    api.getLanguages().then(
      (entries) => setCatalog({ state: 'loaded', entries }),
      () => setCatalog({ state: 'error' }),
    );
  }, [api]);
  useEffect(loadCatalog, [loadCatalog]);

  const save: SaveSettings = useCallback(
    async (patch) => {
      setResult(undefined);
      try {
        await settingsStore.update(patch);
        setResult('saved');
        return true;
      } catch {
        setResult('failed');
        return false;
      }
    },
    [settingsStore],
  );

  return (
    <main className="settings-page" data-testid="settings-page">
      <h1>{t('settings.title')}</h1>
      {result && (
        <p role={result === 'failed' ? 'alert' : 'status'} className={`settings-result settings-${result}`} data-testid="settings-result" data-result={result}>
          {result === 'failed' ? t('settings.saveFailed') : t('settings.saved')}
        </p>
      )}
      {!settings ? (
        <p className="loading">{t('settings.loading')}</p>
      ) : (
        <>
          <GeneralSettings settings={settings} save={save} />
          <section className="settings-section" aria-labelledby="settings-editors">
            <h2 id="settings-editors">{t('settings.editors.title')}</h2>
            <p className="settings-hint">{t('settings.editors.description')}</p>
            {catalog.state === 'loading' && <p className="loading">{t('settings.editors.loading')}</p>}
            {catalog.state === 'error' && (
              <p role="alert" className="banner banner-error" data-testid="languages-error">
                {t('settings.editors.loadFailed')}{' '}
                <button type="button" onClick={loadCatalog}>
                  {t('settings.editors.retry')}
                </button>
              </p>
            )}
            {catalog.state === 'loaded' && (
              <div className="language-cards">
                {languageCards(catalog.entries).map((card) => (
                  <LanguageCardView key={card.id} card={card} settings={settings} save={save} />
                ))}
              </div>
            )}
          </section>
        </>
      )}
    </main>
  );
}
