import { useTranslation } from 'react-i18next';
import type { ServerFeature } from '@kandev/protocol';
import { useSnapshot } from '../../app/useSnapshot.js';
import type { LspConnection } from '../../lib/lsp/connection.js';

/** What the connection's current server offers, live: registrations after initialize update it. */
export function useOfferedFeatures(connection: LspConnection): readonly ServerFeature[] | undefined {
  return useSnapshot(connection.onDidChangeOffered, connection.getOffered);
}

/**
 * The features the attached server advertises (its initialize result and the capabilities it
 * registered since), each named as the editor's commands name it, so a person can tell why, say,
 * Go to Implementations does nothing for this language.
 */
export function LspOfferedFeatures({ features }: { features: readonly ServerFeature[] | undefined }) {
  const { t } = useTranslation('lsp');
  return (
    <section className="lsp-details-section" data-testid="lsp-offered" data-features={features?.join(' ')}>
      <h3>{t('offered.title')}</h3>
      {features === undefined ? (
        <p data-testid="lsp-offered-pending">{t('offered.pending')}</p>
      ) : features.length === 0 ? (
        <p data-testid="lsp-offered-none">{t('offered.none')}</p>
      ) : (
        <ul className="lsp-offered-list">
          {features.map((feature) => (
            <li key={feature} data-feature={feature}>
              {t(`offered.feature.${feature}`)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
