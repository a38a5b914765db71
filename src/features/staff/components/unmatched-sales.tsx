import { useState } from 'react';
import { toast } from 'sonner';
import { Form, FormAlert, SubmitButton, useForm } from '@/components/ui/form';
import { Label } from '@/components/ui/label';
import type { Tier } from '@/content/tiers';
import { formatDateTime } from '../lib/members';
import {
  formatMoney,
  providerIdKindLabels,
  type CatalogProduct,
  type ProviderIdKind,
  type UnmatchedSale,
} from '../lib/catalog';

export type MapProviderId = (kind: ProviderIdKind, id: string, tier: Tier) => Promise<number>;

const selectClasses =
  'border-navy-600/60 text-navy-900 min-h-11 w-full rounded-lg border bg-white px-3 py-2 text-base disabled:opacity-70';

/**
 * Paid sales whose products the catalog did not know, with a count. Mapping one of a sale's
 * provider ids to a product grants every unmatched sale of that id at once, and the ledger
 * invites each new buyer once.
 */
export function UnmatchedSales({
  count,
  sales,
  products,
  onMap,
}: {
  count: number;
  sales: readonly UnmatchedSale[];
  products: readonly CatalogProduct[];
  onMap: MapProviderId;
}) {
  return (
    <section aria-labelledby="unmatched-title" className="rounded-xl bg-white p-4 shadow-sm sm:p-6">
      <h2 id="unmatched-title" className="text-navy-900 text-xl font-semibold">
        Unmatched sales ({count})
      </h2>
      <p className="text-navy-800 mt-1">
        Paid sales of a product the catalog does not know yet. Map the product to a tier: every sale of it is granted,
        and each buyer is invited once.
      </p>
      {sales.length === 0 ? (
        <p className="text-navy-800 mt-4">None: every sale matched a product.</p>
      ) : (
        <ul className="mt-4 flex flex-col gap-4">
          {sales.map((sale) => (
            <li key={sale.id} className="border-navy-100 rounded-lg border p-4">
              <UnmatchedSaleItem sale={sale} products={products} onMap={onMap} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function UnmatchedSaleItem({
  sale,
  products,
  onMap,
}: {
  sale: UnmatchedSale;
  products: readonly CatalogProduct[];
  onMap: MapProviderId;
}) {
  const ids = sale.provider_ids;
  const [choice, setChoice] = useState(0);
  const [tier, setTier] = useState<Tier>(products[0]?.tier ?? 'ebook');
  const form = useForm();
  const idPrefix = `unmatched-${sale.id}`;

  async function submit() {
    const chosen = ids[choice];
    if (!chosen) return;
    const name = products.find((p) => p.tier === tier)?.name ?? tier;
    await form.run('busy', async () => {
      const granted = await onMap(chosen.kind, chosen.id, tier);
      toast.success(`${chosen.id} now grants ${name}: ${granted} sale${granted === 1 ? '' : 's'} granted`);
    });
  }

  return (
    <Form state={form} onSubmit={submit} aria-label={`Map order ${sale.order_id}`} className="flex flex-col gap-3">
      <p className="text-navy-900">
        <span className="font-semibold">Order {sale.order_id}</span> ({sale.provider}) · {sale.email} ·{' '}
        {formatMoney(sale.amount_cents, sale.currency)} · {formatDateTime(sale.occurred_at)}
        {sale.refunded_at && <span className="ml-2 rounded bg-red-50 px-2 py-0.5 text-sm text-red-800">Refunded</span>}
      </p>
      <FormAlert message={form.error} />
      <div className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${idPrefix}-id`}>Provider id</Label>
          <select
            id={`${idPrefix}-id`}
            value={choice}
            disabled={form.isBusy}
            onChange={(event) => setChoice(Number(event.target.value))}
            className={selectClasses}
          >
            {ids.map((id, index) => (
              <option key={`${id.kind}:${id.id}`} value={index}>
                {providerIdKindLabels[id.kind]} {id.id}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${idPrefix}-tier`}>Grants</Label>
          <select
            id={`${idPrefix}-tier`}
            value={tier}
            disabled={form.isBusy}
            onChange={(event) => setTier(event.target.value as Tier)}
            className={selectClasses}
          >
            {products.map((product) => (
              <option key={product.tier} value={product.tier}>
                {product.name}
              </option>
            ))}
          </select>
        </div>
        <SubmitButton busy={form.isBusy} label="Map and grant" busyLabel="Granting..." announce />
      </div>
    </Form>
  );
}
