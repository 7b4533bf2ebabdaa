import { useTranslation } from 'react-i18next';
import { isMacPlatform, shortcutKeys, SHORTCUTS } from '../../app/shortcuts.js';
import { Dialog } from '../ui/Dialog.js';

/** Keys of the Files tree (handled by the tree itself, so not in the window's SHORTCUTS). */
const TREE_KEYS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['tree', ['↑', '↓', '←', '→']],
  ['treeRename', ['F2']],
  ['treeDelete', ['Delete']],
  ['treeMenu', ['Shift', 'F10']],
];

/** The keyboard shortcuts, opened with `?` or from the header's help button. */
export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useTranslation('workbench');
  const mac = isMacPlatform();
  const rows = [...SHORTCUTS.map((id) => [id, shortcutKeys(id, mac)] as const), ...TREE_KEYS];
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('shortcuts.title')} size="sm" testId="shortcuts-dialog">
      <dl className="shortcut-list">
        {rows.map(([id, keys]) => (
          <div key={id} className="shortcut-row" data-testid="shortcut" data-shortcut={id}>
            <dt>{t(`shortcuts.${id}`)}</dt>
            <dd>
              {keys.map((k, i) => (
                <kbd key={i}>{k}</kbd>
              ))}
            </dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
