import { useTranslation } from 'react-i18next';
import { isMacPlatform, shortcutKeys, SHORTCUTS } from '../../app/shortcuts.js';
import { Dialog } from '../ui/Dialog.js';

/** The keyboard shortcuts, opened with `?` or from the header's help button. */
export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useTranslation('workbench');
  const mac = isMacPlatform();
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('shortcuts.title')} size="sm" testId="shortcuts-dialog">
      <dl className="shortcut-list">
        {SHORTCUTS.map((id) => (
          <div key={id} className="shortcut-row" data-testid="shortcut" data-shortcut={id}>
            <dt>{t(`shortcuts.${id}`)}</dt>
            <dd>
              {shortcutKeys(id, mac).map((k, i) => (
                <kbd key={i}>{k}</kbd>
              ))}
            </dd>
          </div>
        ))}
        <div className="shortcut-row" data-testid="shortcut" data-shortcut="tree">
          <dt>{t('shortcuts.tree')}</dt>
          <dd>
            <kbd>↑</kbd>
            <kbd>↓</kbd>
            <kbd>←</kbd>
            <kbd>→</kbd>
          </dd>
        </div>
        <div className="shortcut-row" data-testid="shortcut" data-shortcut="treeRename">
          <dt>{t('shortcuts.treeRename')}</dt>
          <dd>
            <kbd>F2</kbd>
          </dd>
        </div>
        <div className="shortcut-row" data-testid="shortcut" data-shortcut="treeDelete">
          <dt>{t('shortcuts.treeDelete')}</dt>
          <dd>
            <kbd>Delete</kbd>
          </dd>
        </div>
      </dl>
    </Dialog>
  );
}
