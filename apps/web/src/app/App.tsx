import { useTranslation } from 'react-i18next';
import { SessionView } from '../components/session/SessionView.js';
import { SettingsPage } from '../components/settings/SettingsPage.js';
import { AppStatusBar } from '../components/statusbar/AppStatusBar.js';
import { TaskList } from '../components/tasks/TaskList.js';
import { useRoute } from './hooks.js';

export function App() {
  const route = useRoute();
  const { t } = useTranslation();
  return (
    <div className="app">
      <header className="app-header">
        <a href="#/" className="app-title">
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
      </header>
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
      <AppStatusBar />
    </div>
  );
}
