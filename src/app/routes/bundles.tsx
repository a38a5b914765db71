import { Link } from 'react-router-dom';
import { AccountCorner } from '@/app/account-corner';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { bundles } from '@/content/bundles';
import { BundleCard } from '@/features/bundles/components/bundle-card';

export function Component() {
  return (
    <div className="bg-cream min-h-screen">
      {/* Right padding keeps the fixed account corner clear of the Back to Home button; the
          corner sits inside the header so it belongs to a landmark. */}
      <header className="mx-auto max-w-6xl px-4 pt-3 pr-28 sm:px-6 sm:pt-4 sm:pr-32">
        <Link to={paths.home} className={buttonClasses('ghost', 'sm')}>
          <span aria-hidden="true">←</span> Back to Home
        </Link>
        <AccountCorner />
      </header>
      <main className="mx-auto max-w-6xl px-4 pb-12 sm:px-6">
        <div className="py-8 text-center">
          <h1 className="font-serif text-4xl font-bold sm:text-5xl">Compare Our Bundles</h1>
          <p className="text-navy-800 mx-auto mt-3 max-w-2xl text-lg">
            Choose the support that fits your season. Every bundle is designed to help you keep writing, keep believing
            and finish your book.
          </p>
        </div>
        {/* Cards stretch to the row's height; each pushes its button to the bottom. */}
        <div className="grid gap-8 lg:grid-cols-3 lg:gap-6">
          {bundles.map((bundle) => (
            <BundleCard key={bundle.id} bundle={bundle} />
          ))}
        </div>
      </main>
      <footer className="border-navy-100 border-t bg-white px-4 py-8 text-center">
        <p className="text-navy-900 font-bold tracking-wide">INSTANT ACCESS • Digital Delivery • Lifetime Access</p>
        <p className="text-navy-800 mx-auto mt-2 max-w-2xl">
          All bundles include instant digital access. Bundle 2 includes 90-day community access. Bundle 3 includes 6
          months of VIP support.
        </p>
      </footer>
    </div>
  );
}
