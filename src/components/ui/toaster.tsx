import { lazy, Suspense, useSyncExternalStore } from 'react';

/**
 * sonner's toaster is its own chunk: it loads after hydration instead of with the first page. It mounts only once the page has hydrated, so the prerendered
 * HTML and the first client render agree (both have none). Nothing toasts before it is there:
 * the first toast follows a click or a submit.
 */
const SonnerToaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

const noSubscription = () => () => {};

/** How the toasts look and how long they stay, wherever a toaster is mounted. */
export const TOASTER_PROPS = {
  position: 'top-center',
  richColors: true,
  closeButton: true,
  toastOptions: { duration: 5000 },
} as const;

/** Toasts for every success and failure message of the spec; titles plus descriptions. */
export function Toaster() {
  // False in the server render and while hydrating (the server snapshot), true after.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  if (!hydrated) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster {...TOASTER_PROPS} />
    </Suspense>
  );
}
