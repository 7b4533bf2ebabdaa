import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { ReactNode } from 'react';

export interface MenuItem {
  id: string;
  label: ReactNode;
  icon?: ReactNode;
  danger?: boolean;
  disabled?: boolean;
  onSelect(): void;
  testId?: string;
}

/** A menu button on Radix: roving focus, typeahead, Escape, and focus returns to the trigger. */
export function Menu({ trigger, label, items, testId }: { trigger: ReactNode; label: string; items: MenuItem[]; testId?: string }) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="icon-button" aria-label={label} data-testid={testId}>
        {trigger}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={4} collisionPadding={8}>
          {items.map((item) => (
            <DropdownMenu.Item
              key={item.id}
              className={`menu-item${item.danger ? ' menu-item-danger' : ''}`}
              disabled={item.disabled}
              onSelect={item.onSelect}
              data-testid={item.testId}
            >
              {item.icon && (
                <span className="menu-item-icon" aria-hidden="true">
                  {item.icon}
                </span>
              )}
              {item.label}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
