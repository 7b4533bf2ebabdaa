import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LanguageId, UserSettings } from '@kandev/protocol';
import type { LanguageCard } from '../../lib/settings/languageCatalog.js';
import { EditingSwitches } from './EditingSwitches.js';
import { ServerConfigEditor } from './ServerConfigEditor.js';
import { TraceLevelSetting } from './TraceLevelSetting.js';
import type { SaveSettings } from './saveSettings.js';

function toggled(list: readonly LanguageId[], id: LanguageId, on: boolean): LanguageId[] {
  return on ? (list.includes(id) ? [...list] : [...list, id]) : list.filter((l) => l !== id);
}

/**
 * One language of the Editors settings. Everything a person needs before turning auto-install on
 * (command, prerequisites, destination) is printed in the card, never behind a hover (S05).
 */
export function LanguageCardView({ card, settings, save }: { card: LanguageCard; settings: UserSettings; save: SaveSettings }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const id = card.id;
  const name = card.name ?? t(`languages.${id}`, { ns: 'lsp' });
  const headingId = `language-${id}`;
  const run = async (patch: Parameters<SaveSettings>[0]) => {
    setBusy(true);
    await save(patch);
    setBusy(false);
  };
  const notReported = <span className="not-reported">{t('settings.language.notReported')}</span>;
  return (
    <article className="language-card" data-testid="language-card" data-language={id} aria-labelledby={headingId}>
      <header className="language-card-header">
        <h3 id={headingId}>{name}</h3>
        {card.experimental && (
          <span className="badge" data-testid="experimental-badge">
            {t('settings.language.experimental')}
          </span>
        )}
      </header>
      <p className="language-meta" data-testid="language-extensions">
        {t('settings.language.extensions', { list: [...card.extensions, ...(card.fileNames ?? [])].join(' ') })}
      </p>
      {card.binary && (
        <p className="language-meta" data-testid="language-binary">
          {t('settings.language.binary', { binary: card.binary })}
        </p>
      )}
      <div className="settings-check">
        <input
          id={`auto-start-${id}`}
          type="checkbox"
          data-testid="auto-start-toggle"
          checked={settings.lsp_auto_start_languages.includes(id)}
          disabled={busy}
          onChange={(e) => void run({ lsp_auto_start_languages: toggled(settings.lsp_auto_start_languages, id, e.target.checked) })}
        />
        <label htmlFor={`auto-start-${id}`}>{t('settings.language.autoStart')}</label>
      </div>
      {card.autoInstallable ? (
        <div className="settings-check">
          <input
            id={`auto-install-${id}`}
            type="checkbox"
            data-testid="auto-install-toggle"
            checked={settings.lsp_auto_install_languages.includes(id)}
            disabled={busy}
            onChange={(e) => void run({ lsp_auto_install_languages: toggled(settings.lsp_auto_install_languages, id, e.target.checked) })}
          />
          <label htmlFor={`auto-install-${id}`}>{t('settings.language.autoInstall')}</label>
        </div>
      ) : (
        <p className="settings-hint" data-testid="no-auto-install">
          {t('settings.language.noAutoInstall')}
        </p>
      )}
      {(card.autoInstallable || card.installCommand || card.prerequisites || card.managedDestination) && (
        <dl className="install-facts">
          <dt>{t('settings.language.installCommand')}</dt>
          <dd data-testid="install-command">
            {card.installCommand ? <code>{card.installCommand}</code> : card.installStrategy === 'none' ? t('settings.language.manualOnly') : notReported}
          </dd>
          <dt>{t('settings.language.prerequisites')}</dt>
          <dd data-testid="prerequisites">
            {card.prerequisites === undefined ? (
              notReported
            ) : card.prerequisites.length === 0 ? (
              t('settings.language.prerequisitesNone')
            ) : (
              <ul>
                {card.prerequisites.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            )}
          </dd>
          {(card.managedDestination || card.autoInstallable) && (
            <>
              <dt>{t('settings.language.destination')}</dt>
              <dd data-testid="managed-destination">{card.managedDestination ? <code>{card.managedDestination}</code> : notReported}</dd>
            </>
          )}
        </dl>
      )}
      <EditingSwitches language={id} settings={settings} save={save} />
      <TraceLevelSetting language={id} settings={settings} save={save} />
      <ServerConfigEditor language={id} value={settings.lsp_server_configs[id]} save={save} />
    </article>
  );
}
