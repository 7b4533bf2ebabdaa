import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_TRACE_LEVEL, TRACE_LEVELS, type LanguageId, type TraceLevel, type UserSettings } from '@kandev/protocol';
import type { SaveSettings } from './saveSettings.js';

/**
 * The trace level of a language's server (off, messages, verbose): sent in its `initialize` and,
 * when changed here, as `$/setTrace` to the servers already running; the traces go to the Output panel.
 */
export function TraceLevelSetting({ language, settings, save }: { language: LanguageId; settings: UserSettings; save: SaveSettings }) {
  const { t } = useTranslation('faults');
  const [busy, setBusy] = useState(false);
  const current = settings.lsp_trace_levels?.[language] ?? DEFAULT_TRACE_LEVEL;
  const id = `trace-${language}`;
  const hintId = `${id}-hint`;
  return (
    <div className="settings-field trace-level" data-testid="trace-level">
      <label htmlFor={id}>{t('output.traceLabel')}</label>
      <select
        id={id}
        data-testid="trace-level-select"
        aria-describedby={hintId}
        value={current}
        disabled={busy}
        onChange={async (e) => {
          setBusy(true);
          await save({ lsp_trace_levels: { [language]: e.target.value as TraceLevel } });
          setBusy(false);
        }}
      >
        {TRACE_LEVELS.map((level) => (
          <option key={level} value={level}>
            {t(`output.traceLevel.${level}`)}
          </option>
        ))}
      </select>
      <p className="settings-hint" id={hintId}>
        {t('output.traceHint')}
      </p>
    </div>
  );
}
