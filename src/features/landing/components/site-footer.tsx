import { useSyncExternalStore } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { landing } from '@/content/landing';
import { privacy } from '@/content/privacy';
import { site } from '@/content/site';
import { NewTabLink } from '@/components/new-tab-link';

const { tagline, quickLinks, specialOffers, shop, bundles, resources, contact } = landing.footer;

const linkClass = 'underline-offset-4 hover:text-gold-300 hover:underline';

const noSubscription = () => () => {};
const currentYear = () => new Date().getFullYear();
/**
 * The build prints its own year; the page may be read in a later one. So hydration renders
 * no year (a text difference this paragraph allows), and the next render prints the
 * visitor's year, which React then writes over the build's.
 */
const yearWhileHydrating = () => (typeof window === 'undefined' ? currentYear() : null);

export function SiteFooter() {
  // Computed at render, not at module load: a prerendered page must not freeze the year
  // into a module constant, and tests can pin the clock.
  const year = useSyncExternalStore(noSubscription, currentYear, yearWhileHydrating);

  return (
    <footer className="bg-navy-900 text-cream">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-3">
        <div>
          <p className="text-gold-300 font-serif text-2xl font-bold">{site.productName}</p>
          <p className="text-navy-50 mt-2">{tagline}</p>
        </div>
        <nav aria-labelledby="footer-links-heading">
          <h2 id="footer-links-heading" className="text-gold-300 font-semibold tracking-wide uppercase">
            {quickLinks}
          </h2>
          <ul className="mt-3 space-y-2">
            <li>
              <NewTabLink href={site.urls.storefront} className={linkClass}>
                {specialOffers}
              </NewTabLink>
            </li>
            <li>
              <NewTabLink href={site.urls.storefront} className={linkClass}>
                {shop}
              </NewTabLink>
            </li>
            <li>
              <Link to={paths.bundles} className={linkClass}>
                {bundles}
              </Link>
            </li>
            <li>
              <Link to={paths.resources} className={linkClass}>
                {resources}
              </Link>
            </li>
            <li>
              <Link to={paths.privacy} className={linkClass}>
                {privacy.footerLink}
              </Link>
            </li>
          </ul>
        </nav>
        <p className="text-navy-50">
          {contact}{' '}
          <a
            href={`mailto:${site.contactEmail}`}
            className={`${linkClass} text-cream font-semibold break-words underline`}
          >
            {site.contactEmail}
          </a>
        </p>
      </div>
      {/* One text node, so the year may differ at hydration without a mismatch error. */}
      <p className="border-navy-700 text-navy-100 border-t px-4 py-4 text-center text-sm" suppressHydrationWarning>
        {`© ${year ?? ''} ${site.productName} All rights reserved.`}
      </p>
    </footer>
  );
}
