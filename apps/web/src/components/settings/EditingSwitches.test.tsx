import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@kandev/protocol';
import { testI18n } from '../../i18n/testing.js';
import { EditingSwitches } from './EditingSwitches.js';

describe('per-language editing switches', () => {
  it('are off by default and reflect the stored switches of their language only, in the chosen locale', async () => {
    const i18n = await testI18n('pt-pt');
    const settings = { ...DEFAULT_SETTINGS, lsp_editor_features: { go: { inlay_hints: true } } };
    const render = (language: 'go' | 'python') =>
      renderToStaticMarkup(
        <I18nextProvider i18n={i18n}>
          <EditingSwitches language={language} settings={settings} save={async () => true} />
        </I18nextProvider>,
      );
    const go = render('go');
    expect(go).toContain('data-testid="inlay_hints-toggle" checked=""');
    expect(go).not.toContain('data-testid="format_on_save-toggle" checked');
    expect(go).toContain('Formatar ao guardar');
    expect(render('python')).not.toContain('checked');
  });
});
