import { useState, type DragEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useActiveEditor } from '../../services/windowState.js';
import { useFormFactor } from '../../app/hooks.js';
import { useSettings } from '../../services/useSettings.js';
import { useServices } from '../../services/ServicesContext.js';
import { LspStatusBarItem } from './LspStatusBarItem.js';
import { ProblemsStatusItem } from './ProblemsStatusItem.js';
import { lspPlacement, moveBefore, moveItem, orderedItems, showsLspItem, type StatusBarItemId } from './statusBarModel.js';

const DRAG_TYPE = 'application/x-kandev-status-item';

/**
 * The application status bar: items for the active Monaco file (its path, cursor and, when the
 * status location is `status_bar`, its language server). Items reorder by drag and drop or
 * Alt+Left/Alt+Right; the order is saved as status_bar_order through PUT /api/settings.
 * Hidden when Show status bar is off, and on phones.
 */
export function AppStatusBar() {
  const { t } = useTranslation();
  const settings = useSettings();
  const { settings: settingsStore } = useServices();
  const form = useFormFactor();
  const active = useActiveEditor();
  const [saveFailed, setSaveFailed] = useState(false);
  if (!settings || !settings.show_status_bar || form === 'phone') return null;

  const order = orderedItems(settings.status_bar_order);
  const placement = lspPlacement(settings, form);
  const content: Partial<Record<StatusBarItemId, ReactNode>> = {};
  if (active) {
    content.file = (
      <span className="status-bar-text" data-testid="status-bar-file">
        {t('statusBar.file', { path: active.path })}
      </span>
    );
    if (active.cursor) {
      content.cursor = (
        <span className="status-bar-text" data-testid="status-bar-cursor">
          {t('statusBar.cursor', { line: active.cursor.line, column: active.cursor.column })}
        </span>
      );
    }
  }
  const visible = new Set(order.filter((id) => id !== 'lsp' && content[id] !== undefined));
  if (showsLspItem(active, placement)) visible.add('lsp');

  const save = (next: StatusBarItemId[] | undefined) => {
    if (!next) return;
    setSaveFailed(false);
    settingsStore.update({ status_bar_order: next }).catch(() => setSaveFailed(true));
  };
  const onKeyDown = (id: StatusBarItemId) => (e: KeyboardEvent<HTMLElement>) => {
    if (!e.altKey || (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight')) return;
    e.preventDefault();
    const rtl = document.documentElement.dir === 'rtl';
    const direction = (e.key === 'ArrowLeft') !== rtl ? -1 : 1;
    save(moveItem(order, id, direction, visible));
  };
  const onDrop = (target: StatusBarItemId) => (e: DragEvent<HTMLElement>) => {
    const dragged = e.dataTransfer.getData(DRAG_TYPE) as StatusBarItemId;
    e.preventDefault();
    save(moveBefore(order, dragged, target));
  };

  return (
    <footer className="app-status-bar" data-testid="status-bar" aria-label={t('statusBar.label')} data-order={order.join(',')}>
      <ProblemsStatusItem />
      {order
        .filter((id) => visible.has(id))
        .map((id) => (
          <div
            key={id}
            className="status-bar-item"
            data-testid="status-bar-item"
            data-item-id={id}
            draggable
            aria-description={t('statusBar.move')}
            onDragStart={(e) => {
              e.dataTransfer.setData(DRAG_TYPE, id);
              e.dataTransfer.effectAllowed = 'move';
            }}
            onDragOver={(e) => {
              if (e.dataTransfer.types.includes(DRAG_TYPE)) e.preventDefault();
            }}
            onDrop={onDrop(id)}
          >
            {id === 'lsp' && showsLspItem(active, placement) ? (
              <LspStatusBarItem
                key={`${active.sessionId}:${active.language}`}
                connection={active.connection}
                language={active.language}
                onKeyDown={onKeyDown(id)}
              />
            ) : (
              <span className="status-bar-focus" tabIndex={0} onKeyDown={onKeyDown(id)}>
                {content[id]}
              </span>
            )}
          </div>
        ))}
      {saveFailed && (
        <span role="alert" className="status-bar-error" data-testid="status-bar-error">
          {t('statusBar.orderSaveFailed')}
        </span>
      )}
    </footer>
  );
}
