import { after, type Disposable } from '@kandev/kit';
import { useContext, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ClockContext } from '../../app/clock.js';
import type { LiveSnapshot } from '../../lib/live/liveState.js';
import { lineChanges, type LineChange } from '../../lib/live/lineChanges.js';
import type { SessionWorkspace } from '../../lib/workspace/sessionWorkspace.js';
import type { SessionLive } from '../../services/sessionLive.js';

/** Typing settles this long before the gutter is drawn again. */
export const GUTTER_DEBOUNCE_MS = 250;

/**
 * Gutter marks of an open file against HEAD: added, changed and deleted lines, drawn as model
 * decorations (every editor showing the model shows them), recomputed as the text changes
 * (debounced) and as git moves on. Nothing outside a git workspace or for a file HEAD and git
 * know nothing of (an ignored file).
 */
export function useGutterMarks(workspace: SessionWorkspace, live: SessionLive | undefined, snapshot: LiveSnapshot, path: string | undefined): void {
  const clock = useContext(ClockContext);
  const { t } = useTranslation('live');
  const git = snapshot.git;
  const change = path ? snapshot.changes.get(path) : undefined;
  const status = change?.status;
  const headPath = change?.from ?? path;
  useEffect(() => {
    if (!path || !headPath || !live || !git?.available) return;
    const model = workspace.modelOf(path);
    if (!model) return;
    let disposed = false;
    let ids: string[] = [];
    let head: string | undefined;
    let timer: Disposable | undefined;
    const paint = () => {
      if (disposed || head === undefined || model.isDisposed()) return;
      const changes = lineChanges(head, model.getValue()) ?? [];
      ids = model.deltaDecorations(
        ids,
        changes.map((c) => decoration(c, t(`gutter.${c.kind}`))),
      );
    };
    const schedule = () => {
      timer?.dispose();
      timer = after(clock, GUTTER_DEBOUNCE_MS, paint);
    };
    // A file new to git is all added; any other is compared with its text at HEAD (absent: no marks).
    const headText = status === 'added' || status === 'untracked' ? Promise.resolve('') : live.heads.get(headPath);
    headText.then(
      (text) => {
        head = text;
        paint();
      },
      () => undefined,
    );
    const typing = model.onDidChangeContent(schedule);
    return () => {
      disposed = true;
      timer?.dispose();
      typing.dispose();
      if (!model.isDisposed()) model.deltaDecorations(ids, []);
    };
  }, [workspace, live, git, path, headPath, status, clock, t]);
}

function decoration(change: LineChange, tooltip: string) {
  const [start, end] = change.kind === 'deleted' ? [change.line, change.line] : [change.startLine, change.endLine];
  return {
    range: { startLineNumber: start, startColumn: 1, endLineNumber: end, endColumn: 1 },
    options: { isWholeLine: true, linesDecorationsClassName: `gutter-${change.kind}`, linesDecorationsTooltip: tooltip },
  };
}
