import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface DialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  /** Buttons at the bottom, end-aligned. */
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  testId?: string;
  /** For palettes: no title bar is drawn (the title stays for screen readers). */
  bare?: boolean;
}

/**
 * A modal dialog on Radix: focus trapped and restored, Escape and outside clicks close, the title
 * and description wired to aria-labelledby/-describedby.
 */
export function Dialog({ open, onOpenChange, title, description, children, footer, size = 'md', testId, bare }: DialogProps) {
  const { t } = useTranslation('workbench');
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content className={`dialog dialog-${size}${bare ? ' dialog-bare' : ''}`} data-testid={testId}>
          {bare ? (
            <RadixDialog.Title className="visually-hidden">{title}</RadixDialog.Title>
          ) : (
            <div className="dialog-header">
              <RadixDialog.Title className="dialog-title">{title}</RadixDialog.Title>
              <RadixDialog.Close className="icon-button" aria-label={t('common.close')}>
                <X size={16} aria-hidden="true" />
              </RadixDialog.Close>
            </div>
          )}
          {description ? (
            <RadixDialog.Description className="dialog-description">{description}</RadixDialog.Description>
          ) : (
            <RadixDialog.Description className="visually-hidden">{title}</RadixDialog.Description>
          )}
          <div className="dialog-body">{children}</div>
          {footer && <div className="dialog-footer">{footer}</div>}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
