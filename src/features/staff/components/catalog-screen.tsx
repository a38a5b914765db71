import { paths } from '@/config/paths';
import { useMapProviderId, useSaveProduct, useStaffCatalog } from '../api/catalog';
import { useCoachingAllowances, useSaveCoaching } from '../api/coaching-allowances';
import { isStaffRefusal } from '../api/staff-rpc';
import { StaffOnlyView } from './admin-upload-view';
import { CatalogView } from './catalog-view';
import { CoachingCatalogView } from './coaching-catalog-view';
import { StaffScreen } from './staff-screen';

const task = 'Editing the catalog';

/** Container for /staff/catalog. */
export function StaffCatalogScreen({ userId }: { userId: string }) {
  return (
    <StaffScreen userId={userId} path={paths.staffCatalog} task={task}>
      <CatalogPage />
    </StaffScreen>
  );
}

function CatalogPage() {
  const catalog = useStaffCatalog();
  const save = useSaveProduct();
  const map = useMapProviderId();
  const allowances = useCoachingAllowances();
  const saveCoaching = useSaveCoaching();
  if (catalog.status === 'error' && isStaffRefusal(catalog.error))
    return <StaffOnlyView signedIn task={task} path={paths.staffCatalog} />;
  return (
    <CatalogView
      catalog={catalog}
      onSave={(tier, data) => save.mutateAsync({ tier, data })}
      onMap={(kind, id, tier) => map.mutateAsync({ kind, id, tier })}
      coaching={(products) => (
        <CoachingCatalogView
          allowances={allowances}
          names={Object.fromEntries(products.map((product) => [product.tier, product.name]))}
          onSave={(tier, data) => saveCoaching.mutateAsync({ tier, data })}
        />
      )}
    />
  );
}
