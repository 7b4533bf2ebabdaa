import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { workspaceTrustApi, type WorkspaceTrust } from '../../api/workspaceTrustApi.js';
import { useServices } from '../../services/ServicesContext.js';
import './workspaceTrust.css';

/** The languages whose trust consequences the dialog explains, in catalog order. */
const LANGUAGES = ['typescript', 'python', 'go', 'rust', 'kotlin'] as const;

/**
 * The session header's shield: shows whether the task trusts its workspace's tools and opens a
 * dialog that explains, per language, what trusting lets run, with the switch itself. Trust is off
 * by default and applies to language servers started after the change (docs/workspace-trust.md).
 */
export function WorkspaceTrustButton({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation('trust');
  const [trust, setTrust] = useState<WorkspaceTrust | undefined>();
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const [changed, setChanged] = useState(false);
  const titleId = useId();
  const { api } = useServices();
  const trustApi = useMemo(() => workspaceTrustApi(api), [api]);

  useEffect(() => {
    let live = true;
    trustApi.load(sessionId).then(
      (loaded) => live && setTrust(loaded),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [sessionId, trustApi]);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  const toggle = async () => {
    if (!trust || saving) return;
    setSaving(true);
    setFailed(false);
    try {
      setTrust(await trustApi.set(trust.taskId, !trust.trusted));
      setChanged(true);
    } catch {
      setFailed(true);
    } finally {
      setSaving(false);
    }
  };

  const state = trust?.trusted ? 'trusted' : 'untrusted';
  return (
    <div className="workspace-trust">
      <button
        type="button"
        className={`workspace-trust-button ${state}`}
        data-testid="workspace-trust-button"
        data-trusted={trust?.trusted === true}
        aria-label={t(`button.${state}`)}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <ShieldIcon trusted={trust?.trusted === true} />
        <span className="workspace-trust-label">{t(`button.${state}`)}</span>
      </button>
      {open && (
        <div className="workspace-trust-dialog" role="dialog" aria-modal="false" aria-labelledby={titleId} data-testid="workspace-trust-dialog">
          <h2 id={titleId}>{t('dialog.title')}</h2>
          <p>{t('dialog.intro')}</p>
          <ul className="workspace-trust-reasons">
            {LANGUAGES.map((language) => (
              <li key={language} data-language={language}>
                {t(`languages.${language}`)}
              </li>
            ))}
          </ul>
          <label className="workspace-trust-switch">
            <input
              type="checkbox"
              role="switch"
              checked={trust?.trusted === true}
              disabled={!trust || saving}
              aria-checked={trust?.trusted === true}
              onChange={() => void toggle()}
              data-testid="workspace-trust-switch"
            />
            {t('dialog.switch')}
          </label>
          <p className="workspace-trust-state" data-testid="workspace-trust-state">
            {t(`state.${state}`)}
          </p>
          <p className="workspace-trust-effect">{t('dialog.effect')}</p>
          {saving && <p role="status">{t('dialog.saving')}</p>}
          {failed && <p role="alert">{t('dialog.error')}</p>}
          <div className="workspace-trust-actions">
            {changed && (
              <button type="button" onClick={() => window.location.reload()} data-testid="workspace-trust-restart">
                {t('dialog.restart')}
              </button>
            )}
            <button type="button" onClick={() => setOpen(false)}>
              {t('dialog.close')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

/** A shield outline; filled with a check when trusted. Decorative: the button's label says it. */
function ShieldIcon({ trusted }: { trusted: boolean }) {
  return (
    <svg className="workspace-trust-icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
      <path
        d="M8 1 2.5 3v4.2c0 3.4 2.3 6.3 5.5 7.8 3.2-1.5 5.5-4.4 5.5-7.8V3L8 1Z"
        fill={trusted ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth="1.4"
        strokeLinejoin="round"
      />
      {trusted && <path d="m5.4 8 1.8 1.8 3.4-3.6" fill="none" stroke="#fff8c5" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />}
    </svg>
  );
}
