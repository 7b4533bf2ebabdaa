import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_OPEN_FILE_BYTES } from '@kandev/protocol';
import { ApiRequestError } from '../../api/kandevApi.js';
import { mebibytes } from '../../lib/workspace/largeFile.js';
import { useServices } from '../../services/ServicesContext.js';

type Load = { state: 'loading' } | { state: 'error'; tooLarge: boolean } | { state: 'loaded'; lines: string[] };

/** A plain, read-only text view with line numbers (phones). */
export function ReadOnlyViewer({ sessionId, path }: { sessionId: string; path: string }) {
  const { api } = useServices();
  const { t } = useTranslation();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    setLoad({ state: 'loading' });
    api.readFile(sessionId, path).then(
      (file) => live && setLoad({ state: 'loaded', lines: file.content.split(/\r?\n/) }),
      (err: unknown) => live && setLoad({ state: 'error', tooLarge: err instanceof ApiRequestError && err.status === 413 }),
    );
    return () => {
      live = false;
    };
  }, [api, sessionId, path]);
  return (
    <section className="readonly-viewer" data-testid="editor" data-path={path} data-readonly="true">
      <h2 className="panel-title readonly-path">{path}</h2>
      {load.state === 'loading' && <p>{t('editor.opening', { path })}</p>}
      {load.state === 'error' && (
        <p role="alert" data-testid={load.tooLarge ? 'file-too-large' : undefined}>
          {load.tooLarge ? t('editor.tooLarge', { path, limit: mebibytes(MAX_OPEN_FILE_BYTES).replace(/\.0$/, '') }) : t('editor.openFailed', { path })}
        </p>
      )}
      {load.state === 'loaded' && (
        <pre className="readonly-text" tabIndex={0} aria-label={path}>
          {load.lines.map((line, i) => (
            <div key={i} className="readonly-line">
              <span className="line-number" aria-hidden="true">
                {i + 1}
              </span>
              <code>{line}</code>
            </div>
          ))}
        </pre>
      )}
    </section>
  );
}
