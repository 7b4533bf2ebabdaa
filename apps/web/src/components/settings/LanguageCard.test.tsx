import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Locale } from '@kandev/protocol';
import { testI18n } from '../../i18n/testing.js';
import { languageCards } from '../../lib/settings/languageCatalog.js';
import { LanguageCardView } from './LanguageCard.js';

async function renderCard(locale: Locale, entry: Parameters<typeof languageCards>[0][number]) {
  const i18n = await testI18n(locale);
  const card = languageCards([entry]).find((c) => c.id === entry.id)!;
  const html = renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <LanguageCardView card={card} settings={{ ...DEFAULT_SETTINGS, lsp_server_configs: { go: { gopls: { staticcheck: true } } } }} save={async () => true} />
    </I18nextProvider>,
  );
  return html;
}

describe('Editors settings language cards', () => {
  it('S05 the install command, prerequisites and managed destination are printed in the card (no hover, no title attributes)', async () => {
    const html = await renderCard('en', {
      id: 'go',
      name: 'Go',
      extensions: ['.go'],
      installStrategy: 'go',
      installCommand: 'go install golang.org/x/tools/gopls@latest',
      prerequisites: ['Go toolchain on the task PATH'],
      managedDestination: 'GOBIN, GOPATH/bin or ~/go/bin',
      autoInstallable: true,
    });
    expect(html).toMatch(/data-testid="install-command"><code>go install golang.org\/x\/tools\/gopls@latest<\/code>/);
    expect(html).toMatch(/data-testid="prerequisites"><ul><li>Go toolchain on the task PATH<\/li>/);
    expect(html).toMatch(/data-testid="managed-destination"><code>GOBIN, GOPATH\/bin or ~\/go\/bin<\/code>/);
    expect(html).not.toMatch(/\stitle=/);
    expect(html).toContain('data-testid="auto-install-toggle"');
    expect(html).toContain('data-testid="auto-start-toggle" checked=""');
    expect(html).toContain('&quot;staticcheck&quot;: true');
  });

  it('Kotlin: experimental, no auto-install toggle (manual install), auto-start still available; in zh-cn', async () => {
    const html = await renderCard('zh-cn', {
      id: 'kotlin',
      name: 'Kotlin',
      extensions: ['.kt', '.kts'],
      installStrategy: 'none',
      prerequisites: ['A JDK on the task PATH'],
      autoInstallable: false,
      experimental: true,
    });
    expect(html).toContain('data-testid="install-command">无：Kandev 从不自动安装');
    expect(html).toContain('<li>A JDK on the task PATH</li>');
    expect(html).not.toContain('managed-destination');
    expect(html).toContain('data-testid="experimental-badge">实验性<');
    expect(html).not.toContain('auto-install-toggle');
    expect(html).toContain('data-testid="no-auto-install">Kandev 无法自动安装此服务器');
    expect(html).toContain('data-testid="auto-start-toggle"');
  });

  it('missing catalog fields say "not reported" instead of inventing values', async () => {
    const html = await renderCard('en', { id: 'python' });
    expect(html).toContain('data-testid="install-command"><span class="not-reported">Not reported by the backend.</span>');
    expect(html).toContain('<h3 id="language-python">Python</h3>');
  });
});
