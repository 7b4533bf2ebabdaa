import type { LanguageId, Locale } from '@kandev/protocol';
import { formatElapsed, type Translate } from './format.js';
import type { RequestFailure } from '../lib/lsp/requestFailures.js';

/**
 * A failed request's sentence in the page's language: which request, which server, and why. The
 * toast says it, and so does Monaco's rename box, so the person reads the same words for the same
 * failure wherever it is told. `t` is any namespace's translate: every key names its namespace.
 */
export function requestFailureText(failure: RequestFailure, language: LanguageId, t: Translate, locale: Locale): string {
  const params = {
    feature: t(`requestFailed.feature.${failure.feature}`, { ns: 'faults' }),
    language: t(`languages.${language}`, { ns: 'lsp' }),
  };
  switch (failure.reason) {
    case 'timeout':
      return t('requestFailed.timeout', { ns: 'faults', ...params, elapsed: formatElapsed(failure.deadlineMs, t, locale) });
    case 'error':
      return failure.detail
        ? t('requestFailed.error', { ns: 'faults', ...params, detail: failure.detail })
        : t('requestFailed.errorNoDetail', { ns: 'faults', ...params });
    case 'lost':
      return t('requestFailed.lost', { ns: 'faults', ...params });
  }
}
