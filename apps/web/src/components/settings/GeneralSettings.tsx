import { useTranslation } from 'react-i18next';
import { LOCALES, STATUS_LOCATIONS, type Locale, type StatusLocation, type UserSettings } from '@kandev/protocol';
import { isLocale, setLocale } from '../../i18n/i18n.js';
import { THEME_PREFERENCES, type ThemePreference } from '../../app/theme.js';
import { useServices } from '../../services/ServicesContext.js';
import { useTheme } from '../../services/windowState.js';
import type { SaveSettings } from './saveSettings.js';

/** UI language, where the language-server status goes, and whether the status bar shows. */
export function GeneralSettings({ settings, save }: { settings: UserSettings; save: SaveSettings }) {
  const { t } = useTranslation();
  const { t: tw } = useTranslation('workbench');
  const theme = useTheme();
  const { theme: themeStore } = useServices();
  const changeLocale = async (value: string) => {
    if (!isLocale(value)) return;
    if (await save({ locale: value })) await setLocale(value);
  };
  return (
    <section className="settings-section" aria-labelledby="settings-general">
      <h2 id="settings-general">{t('settings.general.title')}</h2>
      <div className="settings-field">
        <label htmlFor="settings-locale">{t('settings.general.locale')}</label>
        <select id="settings-locale" data-testid="settings-locale" value={settings.locale} onChange={(e) => void changeLocale(e.target.value)}>
          {LOCALES.map((locale: Locale) => (
            <option key={locale} value={locale}>
              {t(`settings.general.localeNames.${locale}`)}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="settings-field theme-choice" data-testid="settings-theme" data-theme-preference={theme.preference}>
        <legend>{tw('theme.label')}</legend>
        <div className="segmented">
          {THEME_PREFERENCES.map((value: ThemePreference) => (
            <label key={value} className={`segment${theme.preference === value ? ' checked' : ''}`}>
              <input
                type="radio"
                name="theme"
                value={value}
                checked={theme.preference === value}
                onChange={() => themeStore.setPreference(value)}
                data-testid={`settings-theme-${value}`}
              />
              {tw(`theme.${value}`)}
            </label>
          ))}
        </div>
        <p className="settings-hint">{tw('theme.hint')}</p>
      </fieldset>
      <div className="settings-field">
        <label htmlFor="settings-status-location">{t('settings.general.statusLocation')}</label>
        <select
          id="settings-status-location"
          data-testid="settings-status-location"
          value={settings.lsp_status_location}
          aria-describedby="settings-status-location-hint"
          onChange={(e) => void save({ lsp_status_location: e.target.value as StatusLocation })}
        >
          {STATUS_LOCATIONS.map((location) => (
            <option key={location} value={location}>
              {t(`settings.general.statusLocations.${location}`)}
            </option>
          ))}
        </select>
        <p className="settings-hint" id="settings-status-location-hint">
          {t('settings.general.statusLocationHint')}
        </p>
      </div>
      <div className="settings-field settings-check">
        <input
          id="settings-show-status-bar"
          type="checkbox"
          data-testid="settings-show-status-bar"
          checked={settings.show_status_bar}
          onChange={(e) => void save({ show_status_bar: e.target.checked })}
        />
        <label htmlFor="settings-show-status-bar">{t('settings.general.showStatusBar')}</label>
      </div>
    </section>
  );
}
