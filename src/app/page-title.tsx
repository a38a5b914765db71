import { useEffect, useState } from 'react';
import { useLocation, useMatches } from 'react-router-dom';
import { site } from '@/content/site';

/** What a route may declare in its `handle`: the page's own name for the tab and announcer. */
export type RouteHandle = { title?: string };

/** The landing page's title, as in index.html: what search results and shared links show. */
export const homeTitle = `${site.productName} Finish Your Book in ${site.ebook.daysToFinish} Days`;

/** The title of the deepest route that names one, with the product name; the home title otherwise. */
export function documentTitle(handles: readonly unknown[]): string {
  for (let index = handles.length - 1; index >= 0; index -= 1) {
    const handle = handles[index] as RouteHandle | null | undefined;
    if (handle && typeof handle.title === 'string') return `${handle.title} | ${site.productName}`;
  }
  return homeTitle;
}

/**
 * Keeps the tab's title in step with the route, and tells screen-reader users that a
 * client-side navigation happened: a single-page app changes no page for them otherwise.
 * The first page of a visit is not announced (the browser reads it as it loads).
 */
export function PageTitle() {
  const matches = useMatches();
  const location = useLocation();
  // The first location object, not its key: Back to the first entry of a visit gets the
  // key 'default' again, but a new object, and is announced like any other navigation.
  const [firstLocation] = useState(location);
  const title = documentTitle(matches.map((match) => match.handle));

  // Written into index.html's own <title>, which crawlers and the first paint already have.
  useEffect(() => {
    document.title = title;
  }, [title]);

  return (
    <p role="status" aria-live="polite" aria-atomic="true" className="sr-only">
      {location === firstLocation ? '' : title}
    </p>
  );
}
