import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from '../../app/useSnapshot.js';
import { useServices } from '../../services/ServicesContext.js';

type Check = 'idle' | 'checking' | 'still';

/**
 * Shown while the page is signed out (the backend refused its sign-in: its token changed). It says
 * so once for the whole page, tells how to sign in again without reloading (a reload would lose the
 * editors' unsaved text), and checks again on request: signed in, every socket comes back by itself.
 */
export function SignedOutBanner() {
  const { t } = useTranslation();
  const { access } = useServices();
  const state = useSnapshot(access.onDidChange, () => access.state);
  const [check, setCheck] = useState<Check>('idle');
  if (state !== 'signed-out') return null;

  const recheck = async () => {
    setCheck('checking');
    setCheck((await access.recheck()) ? 'idle' : 'still');
  };

  return (
    <section role="alert" aria-labelledby="signed-out-title" className="banner banner-error signed-out" data-testid="signed-out">
      <div className="signed-out-text">
        <h2 id="signed-out-title" className="signed-out-title">
          {t('access.title')}
        </h2>
        <p>{t('access.body')}</p>
        <p>{t('access.howTo')}</p>
        {check === 'still' && <p data-testid="signed-out-still">{t('access.still')}</p>}
      </div>
      <button type="button" data-testid="signed-out-recheck" disabled={check === 'checking'} onClick={() => void recheck()}>
        {check === 'checking' ? t('access.checking') : t('access.recheck')}
      </button>
    </section>
  );
}
