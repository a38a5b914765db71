import { ResourcesView } from './resources-view';

/**
 * /resources before the member's data: the page's frame and every card's own text, with
 * "Loading..." where the tier and the files will be. The build prerenders it (resources.html)
 * and the app hydrates it as the route's `HydrateFallback`, so a member opening the page
 * reads it at once instead of a blank page and a spinner while the app, their session, tier
 * and file lists arrive. Nothing in it depends on who is signed in.
 */
export function ResourcesSkeleton() {
  return (
    <ResourcesView
      tier={{ status: 'loading' }}
      files={{}}
      accountMenu={<div className="bg-navy-100 size-10 rounded-full" aria-hidden="true" />}
    />
  );
}
