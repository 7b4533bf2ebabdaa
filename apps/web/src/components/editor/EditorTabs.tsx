import { useTranslation } from 'react-i18next';
import type { DocumentView } from '../../lib/workspace/sessionWorkspace.js';

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

interface EditorTabsProps {
  tabs: DocumentView[];
  activePath: string | undefined;
  onActivate(path: string): void;
  onClose(path: string): void;
}

export function EditorTabs({ tabs, activePath, onActivate, onClose }: EditorTabsProps) {
  const { t } = useTranslation();
  const { t: tl } = useTranslation('live');
  return (
    <div role="tablist" className="editor-tabs" aria-label={t('editor.tabs')}>
      {tabs.map((tab) => {
        const active = tab.path === activePath;
        const name = baseName(tab.path);
        return (
          <div
            key={tab.path}
            role="presentation"
            className={`editor-tab${active ? ' active' : ''}`}
            data-testid="editor-tab"
            data-path={tab.path}
            data-active={active ? 'true' : 'false'}
            data-dirty={tab.dirty ? 'true' : 'false'}
            data-disk={tab.disk}
            title={tab.disk === 'deleted' ? `${tab.path} (${tl('disk.tabDeleted')})` : tab.path}
          >
            <button
              type="button"
              role="tab"
              aria-selected={active}
              tabIndex={active ? 0 : -1}
              className="tab-label"
              onClick={() => onActivate(tab.path)}
              onKeyDown={(e) => {
                // Tabs pattern: arrows move between tabs; Delete closes (the × is for pointers).
                const i = tabs.findIndex((x) => x.path === tab.path);
                const next = e.key === 'ArrowRight' ? tabs[i + 1] : e.key === 'ArrowLeft' ? tabs[i - 1] : undefined;
                if (next) {
                  e.preventDefault();
                  const list = e.currentTarget.closest('[role="tablist"]');
                  onActivate(next.path);
                  requestAnimationFrame(() => list?.querySelector<HTMLElement>(`[data-path="${CSS.escape(next.path)}"] [role="tab"]`)?.focus());
                } else if (e.key === 'Delete') {
                  e.preventDefault();
                  onClose(tab.path);
                }
              }}
            >
              {name}
              {tab.disk === 'deleted' && <span className="visually-hidden">{`, ${tl('disk.tabDeleted')}`}</span>}
              {tab.dirty && (
                <span className="dirty-marker" data-testid="dirty-marker" title={t('editor.unsaved')} aria-label={t('editor.unsaved')}>
                  ●
                </span>
              )}
            </button>
            <button type="button" className="tab-close" tabIndex={-1} aria-hidden="true" title={t('editor.close', { name })} onClick={() => onClose(tab.path)}>
              ×
            </button>
          </div>
        );
      })}
    </div>
  );
}
