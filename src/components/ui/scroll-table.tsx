import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/**
 * A data table that scrolls sideways inside its own region on a narrow screen, never the page.
 * The region is named by the table's caption (read by screen readers, hidden on screen) and is
 * focusable, so a keyboard can scroll it. `relative`: the screen-reader-only texts inside are
 * placed against the region, not the page, which they would otherwise widen.
 */
export function ScrollTable({
  captionId,
  caption,
  columns,
  minWidthClassName,
  className,
  children,
}: {
  captionId: string;
  caption: string;
  /** The column headings; a heading that only a screen reader needs can be a `sr-only` span. */
  columns: ReactNode[];
  /** The width below which the table scrolls, a literal Tailwind class such as `min-w-[40rem]`. */
  minWidthClassName: string;
  className?: string;
  /** The body's rows. */
  children: ReactNode;
}) {
  return (
    <div
      role="region"
      aria-labelledby={captionId}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must be reachable by keyboard
      tabIndex={0}
      className={cn('border-navy-100 relative overflow-x-auto rounded-lg border', className)}
    >
      <table className={cn('w-full text-left text-sm', minWidthClassName)}>
        <caption id={captionId} className="sr-only">
          {caption}
        </caption>
        <thead className="bg-navy-50 text-navy-900">
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col" className="px-3 py-2">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="text-navy-800">{children}</tbody>
      </table>
    </div>
  );
}
