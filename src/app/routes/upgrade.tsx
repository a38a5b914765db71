import { AccountCorner } from '@/app/account-corner';
import { BUYER_ACCESS_ATTRIBUTE, BuyerAccess } from '@/app/buyer-access';
import { paths } from '@/config/paths';
import { bundles, formatOriginalPrice, formatSavings } from '@/content/bundles';
import { landing } from '@/content/landing';
import { formatPrice, site } from '@/content/site';
import { ShowcaseCard } from '@/features/upgrade/components/showcase-card';
import { ebookOffer } from '@/content/site';

const { cover } = site.ebook;

export function Component() {
  return (
    <div className="bg-cream min-h-screen">
      {/* The fixed account corner, inside a banner landmark so screen-reader users find it. */}
      <header>
        <AccountCorner />
      </header>
      <main className="mx-auto max-w-6xl px-4 pt-20 pb-16 sm:px-6">
        <div className="text-center">
          <p className="text-navy-700 text-sm font-semibold tracking-wider uppercase">Thank you, and welcome!</p>
          <h1 className="mt-2 font-serif text-4xl font-bold sm:text-5xl">Congratulations on Your Purchase!</h1>
          <p className="text-navy-800 mx-auto mt-4 max-w-2xl text-lg">
            You have taken the first brave step toward finishing your book. Many writers go further with a little more
            support: worksheets and scripture for every writing day, personal coaching, and a community that keeps you
            going. Choose the bundle that fits your season.
          </p>
        </div>
        <div {...{ [BUYER_ACCESS_ATTRIBUTE]: '' }}>
          <BuyerAccess />
        </div>
        <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          <ShowcaseCard
            id="ebook"
            title={`${site.productName} eBook`}
            subtitle={`Your guide to overcoming fear and finishing your book in ${site.ebook.daysToFinish} days.`}
            price={formatPrice(ebookOffer.price)}
            originalPrice={formatPrice(ebookOffer.originalPrice)}
            points={landing.hero.benefits}
            action="Download eBook Now"
            to={paths.resources}
            media={
              <img
                src={cover.src}
                width={cover.width}
                height={cover.height}
                alt={cover.alt}
                loading="lazy"
                className="mb-4 h-auto w-20 rounded shadow-lg"
              />
            }
          />
          {bundles.map((bundle) => (
            <ShowcaseCard
              key={bundle.id}
              id={bundle.id}
              title={bundle.name}
              subtitle={bundle.subtitle}
              price={formatPrice(bundle.price)}
              originalPrice={formatOriginalPrice(bundle)}
              note={formatSavings(bundle)}
              points={bundle.features.map((feature) => feature.title)}
              action={`Explore ${bundle.name}`}
              highlight={bundle.featured}
            />
          ))}
        </div>
      </main>
    </div>
  );
}
