import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { testI18n } from '../../i18n/testing.js';
import { ServicesProvider } from '../../services/ServicesContext.js';
import { fakeServices } from '../../services/testing.js';
import { TaskList } from './TaskList.js';

describe('task list with fake services', () => {
  it('renders its loading state and lists tasks from an effect, never during render', async () => {
    const services = fakeServices({ api: { listTasks: async () => [] } });
    const html = renderToStaticMarkup(
      <I18nextProvider i18n={await testI18n('en')}>
        <ServicesProvider services={services}>
          <TaskList />
        </ServicesProvider>
      </I18nextProvider>,
    );
    expect(html).toContain('role="status"');
    expect(html).toContain('data-testid="new-task"');
    expect(services.calls).toEqual([]);
  });
});
