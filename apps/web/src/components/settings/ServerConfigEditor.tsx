import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LanguageId } from '@kandev/protocol';
import { formatServerConfig, parseServerConfig } from '../../lib/settings/serverConfig.js';
import type { SaveSettings } from './saveSettings.js';

type Outcome = { kind: 'invalid' | 'notObject' | 'saved' | 'failed' } | undefined;

/**
 * The per-language LSP JSON (lsp_server_configs). Invalid JSON, or JSON that is not an object, is
 * refused with a clear message and nothing is sent; a valid object is saved through PUT /api/settings.
 */
export function ServerConfigEditor({ language, value, save }: { language: LanguageId; value: Record<string, unknown> | undefined; save: SaveSettings }) {
  const { t } = useTranslation();
  const saved = formatServerConfig(value);
  const [text, setText] = useState(saved);
  const [outcome, setOutcome] = useState<Outcome>();
  const [busy, setBusy] = useState(false);
  // A save elsewhere (or the backend's normalized answer) updates an untouched editor.
  useEffect(() => setText(saved), [saved]);

  const submit = async () => {
    const parsed = parseServerConfig(text);
    if (!parsed.ok) {
      setOutcome({ kind: parsed.error });
      return;
    }
    setBusy(true);
    const ok = await save({ lsp_server_configs: { [language]: parsed.value } });
    setBusy(false);
    setOutcome({ kind: ok ? 'saved' : 'failed' });
  };

  const inputId = `lsp-config-${language}`;
  const messageId = `${inputId}-message`;
  const invalid = outcome?.kind === 'invalid' || outcome?.kind === 'notObject';
  return (
    <div className="server-config">
      <label htmlFor={inputId}>{t('settings.language.config')}</label>
      <textarea
        id={inputId}
        data-testid="lsp-config-input"
        className="server-config-input"
        spellCheck={false}
        rows={5}
        value={text}
        placeholder={t('settings.language.configEmptyHint')}
        aria-invalid={invalid || undefined}
        aria-describedby={outcome ? messageId : undefined}
        onChange={(e) => {
          setText(e.target.value);
          setOutcome(undefined);
        }}
      />
      <div className="server-config-actions">
        <button type="button" data-testid="lsp-config-save" disabled={busy} onClick={() => void submit()}>
          {t('settings.language.configSave')}
        </button>
        {outcome && (
          <span
            id={messageId}
            role={outcome.kind === 'saved' ? 'status' : 'alert'}
            className={outcome.kind === 'saved' ? 'config-saved' : 'config-error'}
            data-testid={outcome.kind === 'saved' ? 'lsp-config-saved' : 'lsp-config-error'}
            data-error={outcome.kind === 'saved' ? undefined : outcome.kind}
          >
            {outcome.kind === 'invalid' && t('settings.language.configInvalid')}
            {outcome.kind === 'notObject' && t('settings.language.configNotObject')}
            {outcome.kind === 'failed' && t('settings.saveFailed')}
            {outcome.kind === 'saved' && t('settings.language.configSaved')}
          </span>
        )}
      </div>
    </div>
  );
}
