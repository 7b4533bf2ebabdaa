import type { GitFileChange } from '@kandev/protocol';
import { ArrowLeft } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../services/ServicesContext.js';
import { followLiveTree } from '../../services/sessionLive.js';
import { FileTreeModel } from '../../lib/workspace/fileTree.js';
import { ReadOnlyViewer } from '../editor/ReadOnlyViewer.js';
import { FileTree } from '../files/FileTree.js';
import { ChangesPanel } from '../live/ChangesPanel.js';
import { useLiveSnapshot, useSessionLive } from '../live/useSessionLive.js';
import { PhoneDiffViewer } from './PhoneDiffViewer.js';

/** What fills the phone's screen: the file lists, or one file or one change in place of them. */
type Shown = { kind: 'files' } | { kind: 'file'; path: string } | { kind: 'diff'; change: GitFileChange };

/**
 * Phones: a plain read-only viewer. It never loads Monaco and never asks the connection registry
 * for a connection, so no language-server process starts or reattaches invisibly (S58, C15). It
 * follows the disk like the editor does (tree, the file shown) and lists what changed against
 * HEAD, read-only.
 *
 * One thing at a time: a file tapped in the tree, or a change tapped in Changes, takes the place of
 * the lists (below them it would open out of sight), its title gets the focus, and Back to files
 * brings the lists back as they were, with the focus on what was tapped.
 */
export function PhoneSession({ sessionId, initialFile }: { sessionId: string; initialFile?: string }) {
  const { t } = useTranslation();
  const { api } = useServices();
  const tree = useMemo(() => new FileTreeModel((folder) => api.listFiles(sessionId, folder)), [api, sessionId]);
  const [shown, setShown] = useState<Shown>(initialFile ? { kind: 'file', path: initialFile } : { kind: 'files' });
  const path = shown.kind === 'file' ? shown.path : shown.kind === 'diff' ? shown.change.path : undefined;
  const current = useRef(path);
  current.current = path;
  /** Bumped when the file shown changed on disk: the viewer reads it again. */
  const [revision, setRevision] = useState(0);
  const live = useSessionLive(sessionId);
  const liveSnapshot = useLiveSnapshot(live);
  /** What was tapped, to take the focus back to; the title of what opened, to give it to. */
  const opener = useRef<HTMLElement | null>(null);
  const title = useRef<HTMLHeadingElement>(null);
  const layout = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (initialFile) void tree.reveal(initialFile);
  }, [tree, initialFile]);
  useEffect(() => {
    if (!live) return;
    const inView = () => ({ files: current.current ? [current.current] : [], folders: ['', ...tree.getSnapshot().expanded] });
    const following = followLiveTree(live, tree, inView, (paths) => {
      if (current.current && paths.has(current.current)) setRevision((n) => n + 1);
    });
    return () => following.dispose();
  }, [live, tree, path]);
  const open = (next: Shown) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setShown(next);
  };
  // The page may have been scrolled down to the tapped row: what opened starts at the top, read from its title.
  const viewing = shown.kind !== 'files';
  useEffect(() => {
    if (!viewing) return;
    // The layout scrolls on its own; the document may too.
    layout.current?.scrollTo(0, 0);
    window.scrollTo(0, 0);
    title.current?.focus({ preventScroll: true });
  }, [viewing, path]);
  const back = () => {
    setShown({ kind: 'files' });
    // The lists were hidden, not unmounted: the row tapped is still there to return to.
    requestAnimationFrame(() => opener.current?.isConnected && opener.current.focus());
  };
  const git = liveSnapshot.git?.available ? { changes: liveSnapshot.changes, changedFolders: liveSnapshot.changedFolders } : undefined;
  const change = shown.kind === 'diff' ? (liveSnapshot.changes.get(shown.change.path) ?? shown.change) : undefined;
  const head = liveSnapshot.git?.available ? liveSnapshot.git.head : null;
  return (
    <div className="phone-layout" ref={layout} data-testid="phone-session" data-shown={shown.kind}>
      <p className="readonly-notice">{t('session.readOnlyNotice')}</p>
      <div className="phone-lists" hidden={viewing}>
        <FileTree tree={tree} activePath={path} onOpenFile={(file) => open({ kind: 'file', path: file })} git={git} />
        <ChangesPanel live={liveSnapshot} onOpen={(c) => open({ kind: 'diff', change: c })} currentPath={change?.path} />
      </div>
      {viewing && (
        <div className="phone-back-bar">
          <button type="button" className="btn btn-sm phone-back" data-testid="phone-back" onClick={back}>
            <ArrowLeft size={16} aria-hidden="true" />
            {t('session.backToFiles')}
          </button>
        </div>
      )}
      {shown.kind === 'file' && <ReadOnlyViewer key={`${shown.path}:${revision}`} sessionId={sessionId} path={shown.path} titleRef={title} />}
      {change && live && <PhoneDiffViewer sessionId={sessionId} live={live} change={change} head={head} revision={revision} titleRef={title} />}
    </div>
  );
}
