import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Tier } from '@/content/tiers';
import { readState, type ReadState } from '@/lib/read-state';
import {
  parseStaffCatalog,
  type ProductFormData,
  productPayload,
  type ProviderIdKind,
  type StaffCatalog,
} from '../lib/catalog';
import { dashboardKeys } from './dashboard';
import { retryUnlessRefused } from './list-members';
import { callStaffRpc } from './staff-rpc';

export const catalogKeys = {
  all: ['staff', 'catalog'] as const,
};

/** The catalog with its provider ids, the open unmatched sales and the latest audit (staff only). */
export async function getStaffCatalog(): Promise<StaffCatalog> {
  return parseStaffCatalog(await callStaffRpc('staff_catalog', {}));
}

export function staffCatalogQueryOptions() {
  return queryOptions({
    queryKey: catalogKeys.all,
    queryFn: getStaffCatalog,
    retry: retryUnlessRefused,
    meta: { errorMessage: 'Could not load the catalog' },
  });
}

export function useStaffCatalog(): ReadState<StaffCatalog> {
  return readState(useQuery(staffCatalogQueryOptions()));
}

function resolvedCount(data: unknown): number {
  return typeof data === 'object' && data !== null && 'resolved' in data && typeof data.resolved === 'number'
    ? data.resolved
    : 0;
}

/** Saves one product; answers how many unmatched sales its ids now granted. */
export async function saveProduct(tier: Tier, data: ProductFormData): Promise<number> {
  return resolvedCount(await callStaffRpc('staff_save_product', { p_tier: tier, p_product: productPayload(data) }));
}

/** Maps a provider id to a product in one step; answers how many unmatched sales it granted. */
export async function mapProviderId(kind: ProviderIdKind, id: string, tier: Tier): Promise<number> {
  return resolvedCount(await callStaffRpc('staff_map_provider_id', { p_kind: kind, p_provider_id: id, p_tier: tier }));
}

/** After a change the catalog and the dashboard (its unmatched count) are read again. */
function useInvalidateCatalog() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: catalogKeys.all }),
      queryClient.invalidateQueries({ queryKey: dashboardKeys.all }),
    ]);
}

export function useSaveProduct() {
  const invalidate = useInvalidateCatalog();
  return useMutation({
    mutationFn: ({ tier, data }: { tier: Tier; data: ProductFormData }) => saveProduct(tier, data),
    onSettled: invalidate,
  });
}

export function useMapProviderId() {
  const invalidate = useInvalidateCatalog();
  return useMutation({
    mutationFn: ({ kind, id, tier }: { kind: ProviderIdKind; id: string; tier: Tier }) => mapProviderId(kind, id, tier),
    onSettled: invalidate,
  });
}
