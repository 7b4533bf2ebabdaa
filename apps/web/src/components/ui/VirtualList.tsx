import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type ReactNode } from 'react';

interface VirtualListProps {
  /** How many rows the list has (any number: only the visible ones and a few around them are drawn). */
  count: number;
  /** A row's height before it is measured (rows may wrap and end up taller). */
  estimateRowPx: number;
  /** Rows never wrap and are exactly estimateRowPx tall: nothing is measured (a file's lines). */
  fixedRows?: boolean;
  /** A stable key for a row. */
  rowKey(index: number): string;
  /** The content of one row, inside an element this list positions and measures. */
  renderRow(index: number): ReactNode;
  /** Class of the scrolling box (it fills what its panel gives it and scrolls inside it). */
  className: string;
  role?: string;
  ariaLabel?: string;
  testId?: string;
  /** Names the scrolling box itself and makes it focusable, so a keyboard can scroll it (a file's text). */
  scrollerLabel?: string;
}

/**
 * A list that stays light at any size: Outline, Problems, quick open and search results draw only
 * the rows in view (with @tanstack/react-virtual measuring rows that wrap), inside a scrolling box
 * that never grows beyond its panel. Rows are absolutely placed in a box as tall as the whole list,
 * so the scrollbar and keyboard scrolling behave as for a plain list.
 */
export function VirtualList({ count, estimateRowPx, fixedRows, rowKey, renderRow, className, role, ariaLabel, testId, scrollerLabel }: VirtualListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => estimateRowPx,
    getItemKey: rowKey,
    overscan: 8,
  });
  return (
    <div
      ref={scroller}
      className={`virtual-list ${className}`}
      data-testid={testId}
      data-rows={count}
      {...(scrollerLabel === undefined ? {} : { role: 'region', 'aria-label': scrollerLabel, tabIndex: 0 })}
    >
      <div className="virtual-list-body" role={role} aria-label={ariaLabel} style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div
            key={item.key}
            data-index={item.index}
            ref={fixedRows ? undefined : virtualizer.measureElement}
            className="virtual-list-row"
            style={fixedRows ? { transform: `translateY(${item.start}px)`, height: estimateRowPx } : { transform: `translateY(${item.start}px)` }}
          >
            {renderRow(item.index)}
          </div>
        ))}
      </div>
    </div>
  );
}
