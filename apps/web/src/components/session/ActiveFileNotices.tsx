import { useTranslation } from 'react-i18next';
import { MAX_OPEN_FILE_BYTES } from '@kandev/protocol';
import { mebibytes } from '../../lib/workspace/largeFile.js';
import { LargeFileNotice } from '../editor/LargeFileNotice.js';
import { SaveBanners } from '../editor/SaveBanners.js';
import { DiskChangeBar } from '../live/DiskChangeBar.js';
import { EditorChrome } from '../outline/mount.js';
import type { DesktopSessionController } from './useDesktopSessionController.js';

/**
 * What is said about the active file above its editor: save conflicts and errors, a change on
 * disk, opening or failing to open, a binary or too-large file, and the editor's own chrome.
 */
export function ActiveFileNotices({ session }: { session: DesktopSessionController }) {
  const { t } = useTranslation();
  const { workspace, snapshot, active, diff, close } = session;
  const activePath = snapshot.activePath;
  return (
    <>
      {active && (
        <SaveBanners
          document={active}
          onReload={() => void workspace.reloadFromDisk(active.path)}
          onOverwrite={() => void workspace.overwrite(active.path)}
          onDismissError={() => workspace.dismissSaveError(active.path)}
        />
      )}
      {active && (
        <DiskChangeBar
          document={active}
          comparing={diff.comparing}
          onCompare={() => diff.toggleCompare(active.path)}
          onKeepMine={() => workspace.keepMine(active.path)}
          onTakeTheirs={() => void workspace.reloadFromDisk(active.path)}
          onCloseTab={() => close(active.path)}
        />
      )}
      {activePath && snapshot.opening.has(activePath) && (
        <p className="loading" role="status">
          {t('editor.opening', { path: activePath })}
        </p>
      )}
      {activePath && snapshot.openFailed.has(activePath) && (
        <p role="alert" className="banner banner-error">
          {t('editor.openFailed', { path: activePath })}
        </p>
      )}
      {activePath && snapshot.binary.has(activePath) && !diff.headChange && (
        <p className="binary-notice" data-testid="binary-file" data-path={activePath}>
          {t('editor.binary', { path: activePath })}
        </p>
      )}
      {activePath && snapshot.tooLarge.has(activePath) && !diff.headChange && (
        <p className="binary-notice" role="alert" data-testid="file-too-large" data-path={activePath}>
          {t('editor.tooLarge', { path: activePath, limit: mebibytes(MAX_OPEN_FILE_BYTES).replace(/\.0$/, '') })}
        </p>
      )}
      {active && <LargeFileNotice workspace={workspace} path={active.path} />}
      {active && <EditorChrome workspace={workspace} path={active.path} />}
    </>
  );
}
