import { Keyboard, LayoutGrid } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { SignedOutBanner } from '../components/access/SignedOutBanner.js';
import { EditingNotices } from '../components/outline/EditingNotices.js';
import { ServerToasts } from '../components/servers/ServerToasts.js';
import { SessionView } from '../components/session/SessionView.js';
import { SettingsPage } from '../components/settings/SettingsPage.js';
import { ShortcutsDialog } from '../components/shortcuts/ShortcutsDialog.js';
import { AppStatusBar } from '../components/statusbar/AppStatusBar.js';
import { TaskList } from '../components/tasks/TaskList.js';
import { useRoute } from '../app/hooks.js';
import { isTextField, shortcutOf } from '../app/shortcuts.js';
import { useServices } from '../services/ServicesContext.js';
import { useWorkbenchValue } from '../services/windowState.js';

export function App() {
  const route = useRoute();
  const { t } = useTranslation();
  const { t: tw } = useTranslation('workbench');
  const { workbench } = useServices();
  // One value, not the whole workbench: its Problems counts change with every finding, and the
  // whole app below would render again for each.
  const shortcutsHelp = useWorkbenchValue((state) => state.shortcutsHelp);
  const inSession = route.name === 'session';

  // Capture phase: the shortcuts work while Monaco has focus, before it sees the keys.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const id = shortcutOf(e, isTextField(e.target));
      if (id === 'help') {
        e.preventDefault();
        workbench.update({ shortcutsHelp: true });
      } else if (
        id === 'quickOpen' &&
        inSession &&
        document.querySelector('[data-testid="session-view"][data-form-factor="desktop"], [data-testid="session-view"][data-form-factor="tablet"]')
      ) {
        e.preventDefault();
        e.stopPropagation();
        workbench.update({ quickOpen: true });
      } else if (id === 'findInFiles' && inSession) {
        const input = document.querySelector<HTMLInputElement>('[data-testid="search-input"]');
        if (input) {
          e.preventDefault();
          e.stopPropagation();
          input.focus();
          input.select();
        }
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [inSession, workbench]);

  return (
    <div className="app">
      <header className="app-header">
        <a href="#/" className="app-title">
          <span className="app-logo" aria-hidden="true">
            <LayoutGrid size={16} />
          </span>
          {t('app.title')}
        </a>
        <nav className="app-nav" aria-label={t('nav.main')}>
          <a href="#/" data-testid="nav-tasks" aria-current={route.name === 'tasks' ? 'page' : undefined}>
            {t('nav.tasks')}
          </a>
          <a href="#/settings" data-testid="settings-link" aria-current={route.name === 'settings' ? 'page' : undefined}>
            {t('nav.settings')}
          </a>
        </nav>
        <button
          type="button"
          className="icon-button app-help"
          data-testid="shortcuts-button"
          aria-label={tw('shortcuts.open')}
          title={tw('shortcuts.open')}
          onClick={() => workbench.update({ shortcutsHelp: true })}
        >
          <Keyboard size={16} aria-hidden="true" />
        </button>
      </header>
      <SignedOutBanner />
      {route.name === 'session' ? (
        <SessionView
          key={route.sessionId}
          sessionId={route.sessionId}
          initialFile={route.file}
          initialPosition={route.line ? { lineNumber: route.line, column: route.column ?? 1 } : undefined}
        />
      ) : route.name === 'settings' ? (
        <SettingsPage />
      ) : (
        <TaskList />
      )}
      {/* In the flow above the status bar, not over the page: the screen above makes room for them. */}
      <EditingNotices />
      <ServerToasts />
      <AppStatusBar />
      <ShortcutsDialog open={shortcutsHelp} onOpenChange={(open) => workbench.update({ shortcutsHelp: open })} />
    </div>
  );
}
