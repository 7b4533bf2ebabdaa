import { FileSearch } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CodeEditor } from '../editor/CodeEditor.js';
import { DiskCompareView } from '../live/DiskCompareView.js';
import { HeadDiffView } from '../live/HeadDiffView.js';
import { EmptyState } from '../ui/States.js';
import type { DesktopSessionController } from './useDesktopSessionController.js';

/** Where the file is shown: its Monaco editor, a diff over it (against HEAD or the disk), or the empty state. */
export function EditorStage({ session }: { session: DesktopSessionController }) {
  const { t } = useTranslation();
  const { t: tw } = useTranslation('workbench');
  const { monaco, workspace, snapshot, active, live, liveSnapshot, diff, save, onShown, onHidden } = session;
  const headChange = diff.headChange;
  return (
    <>
      {headChange && live && (
        <HeadDiffView
          monaco={monaco}
          workspace={workspace}
          live={live}
          head={liveSnapshot.git?.available ? liveSnapshot.git.head : null}
          change={headChange}
          unreadable={snapshot.binary.has(headChange.path) ? 'binary' : snapshot.tooLarge.has(headChange.path) ? 'too_large' : undefined}
          onClose={diff.close}
        />
      )}
      {diff.comparing && active && (
        <DiskCompareView monaco={monaco} workspace={workspace} path={active.path} diskVersion={active.diskVersion} onClose={diff.close} />
      )}
      {active ? (
        // Kept mounted under a diff (its view state, the status bar's file), just not shown.
        <div className="editor-host" style={{ display: diff.shown ? 'none' : 'contents' }}>
          <CodeEditor
            monaco={monaco}
            workspace={workspace}
            path={active.path}
            revealSeq={snapshot.revealSeq}
            onSave={save}
            onShown={onShown}
            onHidden={onHidden}
          />
        </div>
      ) : (
        !diff.shown &&
        !snapshot.activePath && (
          <EmptyState icon={<FileSearch size={32} />} title={t('editor.empty')} testId="editor-empty">
            {tw('shell.emptyEditorHint')}
          </EmptyState>
        )
      )}
    </>
  );
}
