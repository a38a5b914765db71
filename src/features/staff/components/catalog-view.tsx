import type { ReactNode } from 'react';
import { RetryButton } from '@/components/ui/retry-button';
import { ScrollTable } from '@/components/ui/scroll-table';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/error-message';
import type { ReadState } from '@/lib/read-state';
import type { CatalogAuditRow, CatalogProduct, StaffCatalog } from '../lib/catalog';
import { formatDateTime } from '../lib/members';
import { ProductForm, type SaveProduct } from './product-form';
import { StaffNav } from './staff-nav';
import { UnmatchedSales, type MapProviderId } from './unmatched-sales';

export type CatalogViewProps = {
  catalog: ReadState<StaffCatalog>;
  onSave: SaveProduct;
  onMap: MapProviderId;
  /** The coaching section, under the products (it reads and saves on its own). */
  coaching?: (products: readonly CatalogProduct[]) => ReactNode;
};

/** /staff/catalog: the products as the public pages show them, unmatched sales, coaching, and the audit. */
export function CatalogView({ catalog, onSave, onMap, coaching }: CatalogViewProps) {
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6">
      <header className="flex flex-col gap-3">
        <StaffNav />
        <h1 className="text-navy-900 font-serif text-3xl font-bold">Catalog</h1>
        <p className="text-navy-800">
          Names, prices, checkout links and the provider ids that grant each product. A change reaches the webhook at
          once and the public pages with the site&apos;s next build, which a change starts.
        </p>
      </header>
      {catalog.status === 'loading' && (
        <Spinner
          label={catalog.retrying ? 'Still loading the catalog...' : 'Loading the catalog...'}
          className="py-10"
        />
      )}
      {catalog.status === 'error' && (
        <div role="alert" className="flex flex-col items-start gap-3 rounded-xl bg-white p-6 shadow-sm">
          <p className="text-navy-900 font-semibold">We couldn&apos;t load the catalog.</p>
          <p className="text-navy-800">{errorMessage(catalog.error)}</p>
          <RetryButton retry={catalog.retry} retrying={catalog.retrying} variant="gold" size="md" />
        </div>
      )}
      {catalog.status === 'ready' && (
        <CatalogSections data={catalog.data} onSave={onSave} onMap={onMap} coaching={coaching} />
      )}
    </main>
  );
}

function CatalogSections({
  data,
  onSave,
  onMap,
  coaching,
}: { data: StaffCatalog } & Omit<CatalogViewProps, 'catalog'>) {
  return (
    <>
      <UnmatchedSales count={data.unmatched_count} sales={data.unmatched} products={data.products} onMap={onMap} />
      <section aria-labelledby="products-title" className="flex flex-col gap-4">
        <h2 id="products-title" className="text-navy-900 text-xl font-semibold">
          Products
        </h2>
        {data.products.map((product) => (
          <div key={`${product.tier}-${product.updated_at}`} className="rounded-xl bg-white p-4 shadow-sm sm:p-6">
            <ProductForm product={product} products={data.products} onSave={onSave} />
          </div>
        ))}
      </section>
      {coaching?.(data.products)}
      <CatalogAudit rows={data.audit} />
    </>
  );
}

/** What an audit row changed, before its fields: a product's own need no word. */
const auditPrefix: Record<CatalogAuditRow['what'], (operation: string) => string> = {
  product: () => '',
  provider_id: (operation) => `provider id ${operation}: `,
  coaching: () => 'coaching: ',
  benefit: () => 'live benefit: ',
};

function CatalogAudit({ rows }: { rows: readonly CatalogAuditRow[] }) {
  return (
    <section aria-labelledby="audit-title" className="rounded-xl bg-white p-4 shadow-sm sm:p-6">
      <h2 id="audit-title" className="text-navy-900 text-xl font-semibold">
        Changes
      </h2>
      <ScrollTable
        captionId="audit-caption"
        caption="Catalog changes, newest first"
        columns={['When', 'Who', 'Product', 'Change']}
        minWidthClassName="min-w-[44rem]"
        className="mt-4"
      >
        {rows.map((row) => (
          <tr key={row.id} className="border-t border-slate-200 align-top">
            <td className="px-3 py-2 whitespace-nowrap">{formatDateTime(row.changed_at)}</td>
            <td className="px-3 py-2">{row.changed_by_email ?? 'SQL'}</td>
            <td className="px-3 py-2">{row.tier}</td>
            <td className="px-3 py-2">
              {auditPrefix[row.what](row.operation)}
              {row.changes ?? ''}
            </td>
          </tr>
        ))}
      </ScrollTable>
    </section>
  );
}
