import { useEffect, useState } from 'react';
import { editing } from '../../app/services.js';
import type { OutlineSymbol } from '../../lib/lsp/editing/registry.js';
import { CancelSource } from '../../lib/lsp/cancellation.js';
import type { SessionWorkspace } from '../../lib/workspace/sessionWorkspace.js';

export type OutlineState =
  | { kind: 'noFile' }
  | { kind: 'unavailable' }
  | { kind: 'loading' }
  | { kind: 'ready'; symbols: OutlineSymbol[] };

/** Refetch this long after the last keystroke, not on every one. */
const REFRESH_DELAY_MS = 400;

/**
 * The document symbols of a session file from whichever connection offers them, refreshed when
 * the text changes or a connection (re)registers its source (a resumed lease, a new generation).
 */
export function useOutline(workspace: SessionWorkspace, path: string | undefined): OutlineState {
  const [state, setState] = useState<OutlineState>({ kind: 'noFile' });
  useEffect(() => {
    if (!path) {
      setState({ kind: 'noFile' });
      return undefined;
    }
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A newer fetch (or leaving the file) cancels the one in flight: $/cancelRequest to the server.
    let inflight: CancelSource | undefined;
    const fetchNow = async () => {
      const source = editing.documentSymbols.forPath(workspace.sessionId, path)[0];
      inflight?.cancel();
      if (!source) {
        setState({ kind: 'unavailable' });
        return;
      }
      const mine = (inflight = new CancelSource());
      setState((prev) => (prev.kind === 'ready' ? prev : { kind: 'loading' }));
      const symbols = await source(path, mine.token).catch(() => undefined);
      if (!live || mine !== inflight || mine.token.isCancellationRequested) return;
      setState(symbols ? { kind: 'ready', symbols } : { kind: 'unavailable' });
    };
    const schedule = (delay: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => void fetchNow(), delay);
    };
    schedule(0);
    const sources = editing.documentSymbols.onDidChange(() => schedule(50));
    const model = workspace.modelOf(path);
    const content = model?.onDidChangeContent(() => schedule(REFRESH_DELAY_MS));
    return () => {
      live = false;
      clearTimeout(timer);
      inflight?.cancel();
      sources.dispose();
      content?.dispose();
    };
  }, [workspace, path]);
  return state;
}
