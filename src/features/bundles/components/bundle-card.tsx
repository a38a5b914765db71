import { buttonClasses } from '@/components/ui/button';
import { formatFeatureValue, formatOriginalPrice, formatSavings, previousBundle, type Bundle } from '@/content/bundles';
import { formatPrice } from '@/content/site';
import { NewTabLink } from '@/components/new-tab-link';
import { cn } from '@/lib/cn';

export function BundleCard({ bundle }: { bundle: Bundle }) {
  const headingId = `bundle-${bundle.id}`;
  const includes = previousBundle(bundle);

  return (
    <article
      aria-labelledby={headingId}
      className={cn(
        'relative flex flex-col rounded-2xl bg-white p-6 shadow-lg',
        // No offset for the featured card: in a row, all three share their top, height and
        // button line (the badge stands above the ring instead).
        bundle.featured ? 'ring-gold-500 mt-4 ring-4 lg:mt-0' : 'ring-navy-100 ring-1',
      )}
    >
      {bundle.featured && (
        <p className="bg-navy-900 text-gold-300 absolute -top-4 left-1/2 -translate-x-1/2 rounded-full px-4 py-1 text-sm font-bold tracking-wider whitespace-nowrap">
          MOST POPULAR
        </p>
      )}
      <h2 id={headingId} className="font-serif text-2xl font-bold">
        {bundle.name}
      </h2>
      <p className="text-navy-700 mt-1">{bundle.subtitle}</p>

      {/* The price once, then its total value and savings: the spec's "was" price and total
          value are the same figure, so it is not also struck through
          (docs/decisions/039-bundle-card-figures-once.md). */}
      <p className="mt-4 text-4xl font-bold">
        <span className="sr-only">Price: </span>
        {formatPrice(bundle.price)}
      </p>
      <dl className="mt-3 flex flex-wrap gap-2 text-sm font-semibold">
        <div className="bg-navy-50 rounded-full px-3 py-1">
          <dt className="inline">Total Value: </dt>
          <dd className="inline">{formatOriginalPrice(bundle)}</dd>
        </div>
        <div className="bg-gold-300 text-navy-900 rounded-full px-3 py-1">
          <dt className="sr-only">Savings: </dt>
          <dd className="inline">{formatSavings(bundle)}</dd>
        </div>
      </dl>

      <p className="text-navy-800 mt-4">{bundle.description}</p>

      <h3 className="text-navy-700 mt-6 font-semibold tracking-wide uppercase">What’s included</h3>
      <ul className="mt-3 flex-1 space-y-4">
        {bundle.features.map((feature) => (
          <li key={feature.title} className="border-navy-100 border-b pb-3 last:border-0">
            <p className="flex items-baseline justify-between gap-3">
              <span className="font-semibold">{feature.title}</span>
              <span className="text-navy-700 shrink-0 text-sm font-bold">{formatFeatureValue(feature.value)}</span>
            </p>
            <p className="text-navy-800 mt-1 text-sm">{feature.description}</p>
          </li>
        ))}
        {includes && <li className="text-navy-700 text-sm font-semibold">Plus everything in {includes.name}</li>}
      </ul>

      <NewTabLink
        href={bundle.purchaseUrl}
        checkout={bundle.id}
        // At the narrowest three-column width (lg) the longest label fits on one line only a
        // size down; a wrapped label would put that card's button out of line with the others.
        className={buttonClasses(
          bundle.featured ? 'gold' : 'primary',
          'lg',
          'mt-6 w-full lg:px-4 lg:text-base xl:px-6 xl:text-lg',
        )}
      >
        {bundle.cta}
      </NewTabLink>
    </article>
  );
}
