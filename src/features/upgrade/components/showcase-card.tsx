import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';

type ShowcaseCardProps = {
  id: string;
  title: string;
  subtitle: string;
  price: string;
  /** "was" price, struck through; omitted for the ebook the visitor already bought. */
  originalPrice?: string;
  note?: string;
  /** What the card offers, in a few words each. */
  points: readonly string[];
  action: string;
  /** Where the action leads (default /bundles). */
  to?: string;
  highlight?: boolean;
  media?: ReactNode;
};

/**
 * One card of the post-purchase showcase. The bundles lead to /bundles (spec section 2); the
 * ebook card leads to the buyer's files instead (/bundles does not sell it).
 */
export function ShowcaseCard({
  id,
  title,
  subtitle,
  price,
  originalPrice,
  note,
  points,
  action,
  to = paths.bundles,
  highlight,
  media,
}: ShowcaseCardProps) {
  const headingId = `showcase-${id}`;
  return (
    <article
      aria-labelledby={headingId}
      className={cn(
        'flex flex-col rounded-2xl bg-white p-5 shadow-md',
        highlight ? 'ring-gold-500 ring-4' : 'ring-navy-100 ring-1',
      )}
    >
      {media}
      <h2 id={headingId} className="font-serif text-xl font-bold">
        {title}
      </h2>
      <p className="text-navy-800 mt-1">{subtitle}</p>
      <ul className="mt-4 flex-1 space-y-1.5 text-sm">
        {points.map((point) => (
          <li key={point} className="flex gap-2">
            <svg
              aria-hidden="true"
              viewBox="0 0 20 20"
              className="text-gold-600 mt-0.5 size-4 shrink-0"
              fill="currentColor"
            >
              <path d="M8 13.6 4.4 10l-1.4 1.4L8 16.4l9-9L15.6 6z" />
            </svg>
            {point}
          </li>
        ))}
      </ul>
      <p className="mt-4 flex flex-wrap items-baseline gap-x-2">
        <span className="text-3xl font-bold">
          <span className="sr-only">Price: </span>
          {price}
        </span>
        {originalPrice && (
          <del className="text-navy-600">
            <span className="sr-only">Regular price: </span>
            {originalPrice}
          </del>
        )}
      </p>
      {note && <p className="text-navy-700 mt-1 text-sm font-semibold">{note}</p>}
      <Link to={to} className={buttonClasses(highlight ? 'gold' : 'primary', 'md', 'mt-5 w-full')}>
        {action}
      </Link>
    </article>
  );
}
