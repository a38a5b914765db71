import { useEffect, useMemo, useState } from 'react';
import { useLocation, useMatches } from 'react-router-dom';
import { applyHeadTags, documentTitle, headTags, siteOrigin } from './head';

const origin = siteOrigin(import.meta.env.VITE_SITE_URL);

/**
 * Keeps the tab's title and the page's head tags (description, canonical, robots, share
 * tags) in step with the route, and tells screen-reader users that a client-side
 * navigation happened: a single-page app changes no page for them otherwise.
 * The first page of a visit is not announced (the browser reads it as it loads).
 */
export function PageTitle() {
  const matches = useMatches();
  const location = useLocation();
  // The first location object, not its key: Back to the first entry of a visit gets the
  // key 'default' again, but a new object, and is announced like any other navigation.
  const [firstLocation] = useState(location);
  const handles = matches.map((match) => match.handle);
  const title = documentTitle(handles);
  const { pathname } = location;
  // Same handles for the same matched routes: recompute only when the route changes.
  const routeIds = matches.map((match) => match.id).join(' ');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `handles` follows `routeIds`
  const tags = useMemo(() => headTags(handles, pathname, origin), [routeIds, pathname]);

  // A prerendered page has these tags already (the build wrote them); this replaces them
  // with equal ones, and with the next page's on each navigation.
  useEffect(() => {
    applyHeadTags(document, tags);
  }, [tags]);

  return (
    <p role="status" aria-live="polite" aria-atomic="true" className="sr-only">
      {location === firstLocation ? '' : title}
    </p>
  );
}
