import type { ComponentType } from 'react';
import { paths } from '@/config/paths';

/**
 * Member pages the build also prerenders: as they look before the member's data arrives,
 * the route's `HydrateFallback` (exported by its lazy route module). The build renders it
 * without running the route's loader (no session at build time); in the browser main.ts
 * starts the app at once on such a page, which hydrates it and then runs the loader: the
 * page fills in, or a visitor is sent to sign in. Loaded here without the route module, so
 * the build does not load supabase-js.
 */
export const pageShells: Readonly<Record<string, () => Promise<ComponentType>>> = {
  [paths.resources]: () =>
    import('@/features/resources/components/resources-skeleton').then((module) => module.ResourcesSkeleton),
};
