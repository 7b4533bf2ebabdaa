import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../services/ServicesContext.js';
import { FileTreeModel } from '../../lib/workspace/fileTree.js';
import { ReadOnlyViewer } from '../editor/ReadOnlyViewer.js';
import { FileTree } from '../files/FileTree.js';

/**
 * Phones: a plain read-only viewer. It never loads Monaco and never asks the connection registry
 * for a connection, so no language-server process starts or reattaches invisibly (S58, C15).
 */
export function PhoneSession({ sessionId, initialFile }: { sessionId: string; initialFile?: string }) {
  const { t } = useTranslation();
  const { api } = useServices();
  const tree = useMemo(() => new FileTreeModel((folder) => api.listFiles(sessionId, folder)), [api, sessionId]);
  const [path, setPath] = useState<string | undefined>(initialFile);
  useEffect(() => {
    if (initialFile) void tree.reveal(initialFile);
  }, [tree, initialFile]);
  return (
    <div className="phone-layout">
      <p className="readonly-notice">{t('session.readOnlyNotice')}</p>
      <FileTree tree={tree} activePath={path} onOpenFile={setPath} />
      {path && <ReadOnlyViewer sessionId={sessionId} path={path} />}
    </div>
  );
}
