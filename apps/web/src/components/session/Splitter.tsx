import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';

const STORAGE_KEY = 'kandev.sidebarWidth';
const MIN = 180;
const MAX = 560;
const DEFAULT = 280;
const STEP = 16;

function clamp(width: number): number {
  return Math.round(Math.min(MAX, Math.max(MIN, width)));
}

function stored(): number {
  try {
    const value = Number(window.localStorage.getItem(STORAGE_KEY));
    return Number.isFinite(value) && value > 0 ? clamp(value) : DEFAULT;
  } catch {
    return DEFAULT;
  }
}

/** The width of the Files pane, remembered in this browser. */
export function useSidebarWidth(): [number, (width: number) => void] {
  const [width, setWidth] = useState(stored);
  const set = (next: number) => {
    const value = clamp(next);
    setWidth(value);
    try {
      window.localStorage.setItem(STORAGE_KEY, String(value));
    } catch {
      // not remembered: fine
    }
  };
  return [width, set];
}

/**
 * The handle between the Files pane and the editor: drag with a pointer, or focus it and use
 * Left/Right (Home/End for the bounds), as the WAI-ARIA window splitter pattern describes.
 */
export function Splitter({ width, onResize, controls }: { width: number; onResize(width: number): void; controls: string }) {
  const { t } = useTranslation('workbench');
  const drag = useRef<{ startX: number; startWidth: number } | undefined>(undefined);
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    document.body.classList.toggle('resizing', dragging);
  }, [dragging]);

  const rtl = () => document.documentElement.dir === 'rtl';
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    drag.current = { startX: e.clientX, startWidth: width };
    e.currentTarget.setPointerCapture(e.pointerId);
    setDragging(true);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    const delta = (e.clientX - drag.current.startX) * (rtl() ? -1 : 1);
    onResize(drag.current.startWidth + delta);
  };
  const end = () => {
    drag.current = undefined;
    setDragging(false);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const grow = rtl() ? 'ArrowLeft' : 'ArrowRight';
    const shrink = rtl() ? 'ArrowRight' : 'ArrowLeft';
    if (e.key === grow) onResize(width + STEP);
    else if (e.key === shrink) onResize(width - STEP);
    else if (e.key === 'Home') onResize(MIN);
    else if (e.key === 'End') onResize(MAX);
    else return;
    e.preventDefault();
  };
  return (
    <div
      className={`splitter${dragging ? ' dragging' : ''}`}
      role="separator"
      aria-orientation="vertical"
      aria-controls={controls}
      aria-label={t('shell.resizeFiles')}
      aria-valuemin={MIN}
      aria-valuemax={MAX}
      aria-valuenow={width}
      tabIndex={0}
      data-testid="sidebar-splitter"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={end}
      onPointerCancel={end}
      onKeyDown={onKeyDown}
    />
  );
}
