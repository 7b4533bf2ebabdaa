import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EDITOR_FEATURE_KEYS, editorFeatureOn, type EditorFeatureKey, type LanguageId, type UserSettings } from '@kandev/protocol';
import type { SaveSettings } from './saveSettings.js';
import './editingSwitches.css';

const LABELS: Record<EditorFeatureKey, string> = {
  format_on_save: 'settings.formatOnSave',
  format_on_type: 'settings.formatOnType',
  inlay_hints: 'settings.inlayHints',
  code_lens: 'settings.codeLens',
};

/** Per-language editing switches of a language card: format on save / on type, inlay hints, code lenses (editorFeatureDefault). */
export function EditingSwitches({ language, settings, save }: { language: LanguageId; settings: UserSettings; save: SaveSettings }) {
  const { t } = useTranslation('editing');
  const [busy, setBusy] = useState(false);
  const current = settings.lsp_editor_features?.[language] ?? {};
  return (
    <fieldset className="editing-switches" data-testid="editing-switches">
      <legend>{t('settings.heading')}</legend>
      {EDITOR_FEATURE_KEYS.map((key) => (
        <div className="settings-check" key={key}>
          <input
            id={`${key}-${language}`}
            type="checkbox"
            data-testid={`${key}-toggle`}
            checked={editorFeatureOn(current, language, key)}
            disabled={busy}
            onChange={async (e) => {
              setBusy(true);
              await save({ lsp_editor_features: { [language]: { [key]: e.target.checked } } });
              setBusy(false);
            }}
          />
          <label htmlFor={`${key}-${language}`}>{t(LABELS[key])}</label>
        </div>
      ))}
      <p className="settings-hint">{t('settings.hint')}</p>
    </fieldset>
  );
}
