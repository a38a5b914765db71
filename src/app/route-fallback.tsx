import { FullPageSpinner } from '@/components/ui/spinner';

/**
 * What a lazy route shows on a direct load while its chunk and loader arrive (the router's
 * `HydrateFallback`). Part of the first chunk, so it must stay tiny: no client, no queries.
 */
export function routeFallback(label: string) {
  return function RouteFallback() {
    return <FullPageSpinner label={label} className="bg-cream" />;
  };
}
