import { buttonClasses } from '@/components/ui/button';
import { landing } from '@/content/landing';
import { formatPrice, site } from '@/content/site';
import { NewTabLink } from '@/components/new-tab-link';
import { PurchaseLink } from '@/features/purchase';
import { ebookOffer } from '@/content/site';

const { label, notes, buy, offers, heading } = landing.price;

export function PriceBlock() {
  return (
    <section aria-labelledby="price-heading" className="text-navy-900 rounded-2xl bg-white p-5 shadow-xl sm:p-6">
      <h2 id="price-heading" className="font-serif text-2xl font-bold">
        {heading}
      </h2>
      <p className="text-navy-700 mt-1 text-sm font-semibold tracking-wide uppercase">{label}</p>
      <p className="mt-2 flex flex-wrap items-baseline gap-x-3">
        <del className="text-navy-600 text-xl">
          <span className="sr-only">Regular price: </span>
          {formatPrice(ebookOffer.originalPrice)}
        </del>
        <span className="text-navy-900 text-5xl font-bold">
          <span className="sr-only">Today’s price: </span>
          {formatPrice(ebookOffer.price)}
        </span>
      </p>
      <ul className="mt-4 grid gap-2 text-base sm:grid-cols-3 sm:gap-3 lg:grid-cols-1 xl:grid-cols-3">
        {notes.map((note) => (
          <li key={note} className="flex items-center gap-2">
            <svg aria-hidden="true" viewBox="0 0 20 20" className="text-gold-600 size-5 shrink-0" fill="currentColor">
              <path d="M8 13.6 4.4 10l-1.4 1.4L8 16.4l9-9L15.6 6z" />
            </svg>
            {note}
          </li>
        ))}
      </ul>
      <div className="mt-5 flex flex-col gap-3 sm:flex-row">
        <PurchaseLink className={buttonClasses('gold', 'lg', 'sm:flex-1')}>{buy}</PurchaseLink>
        <NewTabLink href={site.urls.storefront} className={buttonClasses('outline', 'lg', 'sm:flex-1')}>
          {offers}
        </NewTabLink>
      </div>
    </section>
  );
}
