import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';

export type SurfaceKind = 'popover' | 'drawer';

interface StatusSurfaceProps {
  kind: SurfaceKind;
  /** The control that opened the surface: the popover is anchored to it, focus returns to it. */
  anchor: RefObject<HTMLElement | null>;
  /** Popovers open below a toolbar control and above a status-bar item. */
  placement: 'below' | 'above';
  labelledBy: string;
  onClose(): void;
  children: ReactNode;
}

const GAP = 4;
const MARGIN = 8;
const MAX_WIDTH = 416;

/**
 * A popover anchored to its control on fine pointers, an inset bottom drawer on coarse pointers
 * (S48, S54). Both are fixed-position layers in document.body, sized to the viewport, scrolling
 * vertically inside and never horizontally; Escape, the close button or a press outside close them.
 */
export function StatusSurface({ kind, anchor, placement, labelledBy, onClose, children }: StatusSurfaceProps) {
  const { t } = useTranslation('lsp');
  const panel = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState<CSSProperties>({ visibility: 'hidden' });
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useLayoutEffect(() => {
    if (kind !== 'popover') return;
    const place = () => {
      const box = anchor.current?.getBoundingClientRect();
      if (!box) return;
      const vw = document.documentElement.clientWidth;
      const vh = window.innerHeight;
      const width = Math.min(MAX_WIDTH, vw - 2 * MARGIN);
      const left = Math.min(Math.max(MARGIN, box.right - width), vw - width - MARGIN);
      if (placement === 'below') {
        const top = box.bottom + GAP;
        setPosition({ left, top, width, maxHeight: Math.max(120, vh - top - MARGIN) });
      } else {
        const bottom = vh - box.top + GAP;
        setPosition({ left, bottom, width, maxHeight: Math.max(120, box.top - GAP - MARGIN) });
      }
    };
    place();
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, true);
    return () => {
      window.removeEventListener('resize', place);
      window.removeEventListener('scroll', place, true);
    };
  }, [kind, anchor, placement]);

  useEffect(() => {
    const returnTo = anchor.current;
    panel.current?.focus({ preventScroll: true });
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        closeRef.current();
      }
    };
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Node | null;
      if (!target || panel.current?.contains(target) || anchor.current?.contains(target)) return;
      closeRef.current();
    };
    document.addEventListener('keydown', onKey, true);
    if (kind === 'popover') document.addEventListener('pointerdown', onPointer, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onPointer, true);
      if (returnTo && document.contains(returnTo)) returnTo.focus({ preventScroll: true });
    };
  }, [kind, anchor]);

  const body = (
    <div
      ref={panel}
      className={`lsp-surface lsp-${kind}`}
      style={kind === 'popover' ? position : undefined}
      role="dialog"
      aria-modal={kind === 'drawer' ? true : undefined}
      aria-labelledby={labelledBy}
      tabIndex={-1}
      data-testid="lsp-status-panel"
      data-surface={kind}
      data-placement={kind === 'popover' ? placement : 'bottom'}
    >
      <button type="button" className="lsp-surface-close" data-testid="lsp-panel-close" aria-label={t('action.close')} onClick={() => closeRef.current()}>
        <span aria-hidden="true">×</span>
      </button>
      {children}
    </div>
  );

  return createPortal(
    kind === 'drawer' ? (
      <>
        <div className="lsp-drawer-backdrop" data-testid="lsp-drawer-backdrop" onClick={() => closeRef.current()} />
        {body}
      </>
    ) : (
      body
    ),
    document.body,
  );
}
