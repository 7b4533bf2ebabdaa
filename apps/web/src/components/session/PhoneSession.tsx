import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../services/ServicesContext.js';
import { followLiveTree } from '../../services/sessionLive.js';
import { FileTreeModel } from '../../lib/workspace/fileTree.js';
import { ReadOnlyViewer } from '../editor/ReadOnlyViewer.js';
import { FileTree } from '../files/FileTree.js';
import { ChangesPanel } from '../live/ChangesPanel.js';
import { useLiveSnapshot, useSessionLive } from '../live/useSessionLive.js';

/**
 * Phones: a plain read-only viewer. It never loads Monaco and never asks the connection registry
 * for a connection, so no language-server process starts or reattaches invisibly (S58, C15). It
 * follows the disk like the editor does (tree, the file shown) and lists what changed against
 * HEAD, read-only.
 */
export function PhoneSession({ sessionId, initialFile }: { sessionId: string; initialFile?: string }) {
  const { t } = useTranslation();
  const { api } = useServices();
  const tree = useMemo(() => new FileTreeModel((folder) => api.listFiles(sessionId, folder)), [api, sessionId]);
  const [path, setPath] = useState<string | undefined>(initialFile);
  const shown = useRef(path);
  shown.current = path;
  /** Bumped when the file shown changed on disk: the viewer reads it again. */
  const [revision, setRevision] = useState(0);
  const live = useSessionLive(sessionId);
  const liveSnapshot = useLiveSnapshot(live);
  useEffect(() => {
    if (initialFile) void tree.reveal(initialFile);
  }, [tree, initialFile]);
  useEffect(() => {
    if (!live) return;
    const inView = () => ({ files: shown.current ? [shown.current] : [], folders: ['', ...tree.getSnapshot().expanded] });
    const following = followLiveTree(live, tree, inView, (paths) => {
      if (shown.current && paths.has(shown.current)) setRevision((n) => n + 1);
    });
    return () => following.dispose();
  }, [live, tree, path]);
  const git = liveSnapshot.git?.available ? { changes: liveSnapshot.changes, changedFolders: liveSnapshot.changedFolders } : undefined;
  return (
    <div className="phone-layout">
      <p className="readonly-notice">{t('session.readOnlyNotice')}</p>
      <FileTree tree={tree} activePath={path} onOpenFile={setPath} git={git} />
      <ChangesPanel live={liveSnapshot} />
      {path && <ReadOnlyViewer key={`${path}:${revision}`} sessionId={sessionId} path={path} />}
    </div>
  );
}
