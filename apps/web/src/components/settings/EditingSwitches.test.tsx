import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@kandev/protocol';
import { testI18n } from '../../i18n/testing.js';
import { EditingSwitches } from './EditingSwitches.js';

describe('per-language editing switches', () => {
  it('are off by default (code lenses on, except TypeScript) and reflect the stored switches of their language only, in the chosen locale', async () => {
    const i18n = await testI18n('pt-pt');
    const settings = { ...DEFAULT_SETTINGS, lsp_editor_features: { go: { inlay_hints: true } } };
    const render = (language: 'go' | 'python' | 'typescript') =>
      renderToStaticMarkup(
        <I18nextProvider i18n={i18n}>
          <EditingSwitches language={language} settings={settings} save={async () => true} />
        </I18nextProvider>,
      );
    const go = render('go');
    expect(go).toContain('data-testid="inlay_hints-toggle" checked=""');
    expect(go).not.toContain('data-testid="format_on_save-toggle" checked');
    expect(go).toContain('Formatar ao guardar');
    expect(go).toContain('Lentes de código');
    expect(go).toContain('data-testid="code_lens-toggle" checked=""');
    const python = render('python');
    expect(python.match(/checked=""/g)).toHaveLength(1);
    expect(python).toContain('data-testid="code_lens-toggle" checked=""');
    expect(render('typescript')).not.toContain('checked');
  });
});
