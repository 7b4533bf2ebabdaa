import type { ActiveEditor } from '../app/activeEditor.js';
import type { ThemeState } from '../app/themeStore.js';
import { useSnapshot } from '../app/useSnapshot.js';
import type { WorkbenchState } from '../app/workbench.js';
import { useServices } from './ServicesContext.js';

/** The window's workbench state (Problems, dialogs), re-rendering on each change. */
export function useWorkbench(): WorkbenchState {
  const { workbench } = useServices();
  return useSnapshot(workbench.onDidChange, workbench.get);
}

/** The window's active Monaco editor, if any (the status bar, outline and breadcrumbs follow it). */
export function useActiveEditor(): ActiveEditor | undefined {
  const { activeEditor } = useServices();
  return useSnapshot(activeEditor.onDidChange, activeEditor.get);
}

/** The window's theme preference and what it resolves to now. */
export function useTheme(): ThemeState {
  const { theme } = useServices();
  return useSnapshot(theme.onDidChange, theme.get);
}
