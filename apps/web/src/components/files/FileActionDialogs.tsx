import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApplyEditResult } from '../../lib/lsp/edits/applyResult.js';
import { baseName, joinPath, nameProblem, parentFolder, type FileAction, type NameProblem } from '../../lib/workspace/fileActions.js';
import { Dialog } from '../ui/Dialog.js';

/** What a Files panel dialog is asked to do; undefined when none is open. */
export type FileDialogRequest =
  | { kind: 'create'; folder: string; siblings?: readonly string[] }
  | { kind: 'rename'; path: string; directory: boolean; siblings?: readonly string[] }
  | { kind: 'delete'; path: string; directory: boolean };

interface Props {
  request: FileDialogRequest | undefined;
  onClose(): void;
  run(action: FileAction): Promise<ApplyEditResult>;
}

/** Selects the name without its extension, as a rename usually keeps it. */
function selectBaseName(input: HTMLInputElement): void {
  const dot = input.value.lastIndexOf('.');
  input.setSelectionRange(0, dot > 0 ? dot : input.value.length);
}

/**
 * The Files panel's dialogs: a name for a new file or a rename, and the confirmation of a delete.
 * The action runs while the dialog stays open; a refusal (a name in use, unsaved changes, a file
 * changed on disk) is shown in it and nothing was changed.
 */
export function FileActionDialogs({ request, onClose, run }: Props) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<NameProblem | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  /** The base name is selected once, when the rename dialog first focuses its field. */
  const selected = useRef(false);

  useEffect(() => {
    setName(request?.kind === 'rename' ? baseName(request.path) : '');
    setProblem(undefined);
    setFailure(undefined);
    setBusy(false);
    selected.current = false;
  }, [request]);

  if (!request) return null;

  const perform = (action: FileAction) => {
    setBusy(true);
    setFailure(undefined);
    run(action).then(
      (result) => {
        setBusy(false);
        if (result.applied) onClose();
        else setFailure(result.failureReason ?? t('files.action.failed'));
      },
      () => {
        setBusy(false);
        setFailure(t('files.action.failed'));
      },
    );
  };

  const open = (next: boolean) => {
    if (!next && !busy) onClose();
  };

  if (request.kind === 'delete') {
    const footer = (
      <>
        <button type="button" className="btn" onClick={onClose} disabled={busy}>
          {t('files.action.cancel')}
        </button>
        <button
          type="button"
          className="btn btn-danger"
          data-testid="file-delete-confirm"
          disabled={busy}
          onClick={() => perform({ kind: 'delete', path: request.path, directory: request.directory })}
        >
          {t('files.action.delete')}
        </button>
      </>
    );
    return (
      <Dialog
        open
        onOpenChange={open}
        size="sm"
        testId="file-delete-dialog"
        title={t(request.directory ? 'files.action.deleteFolderTitle' : 'files.action.deleteFileTitle')}
        footer={footer}
      >
        <p className="file-action-path">{request.path}</p>
        <p>{t(request.directory ? 'files.action.deleteFolderBody' : 'files.action.deleteFileBody')}</p>
        {failure && (
          <p className="field-error" role="alert" data-testid="file-action-error">
            {failure}
          </p>
        )}
      </Dialog>
    );
  }

  const creating = request.kind === 'create';
  const folder = creating ? request.folder : parentFolder(request.path);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = nameProblem(name, { nested: creating, siblings: request.siblings, current: creating ? undefined : baseName(request.path) });
    setProblem(found);
    if (found) {
      input.current?.focus();
      return;
    }
    if (creating) perform({ kind: 'create', path: joinPath(folder, name) });
    else perform({ kind: 'rename', from: request.path, to: joinPath(folder, name), directory: request.directory });
  };
  const errorId = 'file-name-error';
  const message = problem ? t(`files.name.${problem}`) : failure;
  return (
    <Dialog
      open
      onOpenChange={open}
      size="sm"
      testId="file-name-dialog"
      title={t(creating ? 'files.action.newFileTitle' : request.directory ? 'files.action.renameFolderTitle' : 'files.action.renameFileTitle')}
      description={t('files.action.inFolder', { folder: folder === '' ? t('files.action.root') : `${folder}/` })}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose} disabled={busy}>
            {t('files.action.cancel')}
          </button>
          <button type="submit" form="file-name-form" className="btn btn-primary" data-testid="file-name-submit" disabled={busy}>
            {t(creating ? 'files.action.create' : 'files.action.rename')}
          </button>
        </>
      }
    >
      <form id="file-name-form" className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="file-name-input">{t(creating ? 'files.action.nameLabelNew' : 'files.action.nameLabel')}</label>
          <input
            id="file-name-input"
            ref={input}
            className="input"
            data-testid="file-name-input"
            value={name}
            autoComplete="off"
            spellCheck={false}
            placeholder={creating ? t('files.action.namePlaceholder') : undefined}
            aria-invalid={message ? true : undefined}
            aria-describedby={message ? errorId : undefined}
            autoFocus
            onFocus={(e) => {
              if (creating || selected.current) return;
              selected.current = true;
              selectBaseName(e.currentTarget);
            }}
            onChange={(e) => {
              setName(e.target.value);
              setProblem(undefined);
              setFailure(undefined);
            }}
          />
          {message && (
            <p id={errorId} className="field-error" role="alert" data-testid="file-action-error">
              {message}
            </p>
          )}
        </div>
      </form>
    </Dialog>
  );
}
