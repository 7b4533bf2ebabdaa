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

/**
 * One value of the workbench state: the component re-renders only when that value changes, not on
 * every workbench update (the Problems counts change with each diagnostics publication). `select`
 * must return a primitive or a reference the state keeps.
 */
export function useWorkbenchValue<T>(select: (state: WorkbenchState) => T): T {
  const { workbench } = useServices();
  return useSnapshot(workbench.onDidChange, () => select(workbench.get()));
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
