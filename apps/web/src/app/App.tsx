import { useTranslation } from 'react-i18next';
import { SessionView } from '../components/session/SessionView.js';
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
      </header>
      {route.name === 'session' ? (
        <SessionView
          key={route.sessionId}
          sessionId={route.sessionId}
          initialFile={route.file}
          initialPosition={route.line ? { lineNumber: route.line, column: route.column ?? 1 } : undefined}
        />
      ) : (
        <TaskList />
      )}
    </div>
  );
}
