import { toast } from 'sonner';
import { Field, Form, FormAlert, SubmitButton, useForm } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import type { Tier } from '@/content/tiers';
import {
  centsToDollars,
  idsHeldElsewhere,
  checkProductForm,
  providerIdsText,
  refusedField,
  type CatalogProduct,
  type ProductFormData,
  type ProductFormValues,
} from '../lib/catalog';

export type SaveProduct = (tier: Tier, data: ProductFormData) => Promise<number>;

/** The form's values as typed (the inputs keep them; the submit reads them). */
function readValues(form: HTMLFormElement): ProductFormValues {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? '');
  return {
    name: text('name'),
    price: text('price'),
    total_value: text('total_value'),
    savings: text('savings'),
    checkout_url: text('checkout_url'),
    sales_video_url: text('sales_video_url'),
    provider_ids: text('provider_ids'),
    total_value_is_floor: data.get('total_value_is_floor') === 'on',
    savings_is_floor: data.get('savings_is_floor') === 'on',
  };
}

function savedMessage(name: string, granted: number): string {
  return granted > 0 ? `${name} saved: ${granted} unmatched sale${granted === 1 ? '' : 's'} granted` : `${name} saved`;
}

/**
 * One product of the catalog: every field checked as the database checks it, the problem said
 * at its field; a refusal by the database (another staff member's change in between) lands at
 * the field it names.
 */
export function ProductForm({
  product,
  products,
  onSave,
}: {
  product: CatalogProduct;
  products: readonly CatalogProduct[];
  onSave: SaveProduct;
}) {
  const form = useForm();
  const id = `product-${product.tier}`;

  async function submit(element: HTMLFormElement) {
    const checked = checkProductForm(readValues(element), idsHeldElsewhere(products, product.tier));
    if (!checked.ok) {
      form.setFieldErrors(checked.errors);
      form.setError('Nothing was saved: check the fields marked below.');
      return;
    }
    form.setFieldErrors({});
    await form.run('busy', async () => {
      try {
        toast.success(savedMessage(checked.data.name, await onSave(product.tier, checked.data)));
      } catch (caught) {
        const field = refusedField(caught);
        if (!field) throw caught;
        form.setFieldErrors({ [field]: caught instanceof Error ? caught.message : String(caught) });
        throw new Error('Nothing was saved: check the fields marked below.');
      }
    });
  }

  return (
    <Form state={form} onSubmit={submit} noValidate aria-labelledby={`${id}-title`} className="flex flex-col gap-4">
      <h3 id={`${id}-title`} className="text-navy-900 text-lg font-semibold">
        {product.name}
      </h3>
      <FormAlert message={form.error} />
      <ProductFields product={product} id={id} errors={form.fieldErrors} busy={form.isBusy} />
      <div>
        <SubmitButton busy={form.isBusy} label={`Save ${product.name}`} busyLabel="Saving..." announce />
      </div>
    </Form>
  );
}

function ProductFields({
  product,
  id,
  errors,
  busy,
}: {
  product: CatalogProduct;
  id: string;
  errors: Partial<Record<string, string>>;
  busy: boolean;
}) {
  return (
    <fieldset disabled={busy} className="grid gap-4 sm:grid-cols-2">
      <Field id={`${id}-name`} label="Name" error={errors.name}>
        <Input name="name" defaultValue={product.name} maxLength={80} />
      </Field>
      <Field id={`${id}-price`} label="Price shown (US$)" error={errors.price} hint="Like 49 or 24.95">
        <Input name="price" inputMode="decimal" defaultValue={centsToDollars(product.price_cents)} />
      </Field>
      <Field id={`${id}-total-value`} label="Total value (US$)" error={errors.total_value}>
        <Input name="total_value" inputMode="decimal" defaultValue={centsToDollars(product.total_value_cents)} />
      </Field>
      <Field id={`${id}-savings`} label="Savings (US$)" error={errors.savings}>
        <Input name="savings" inputMode="decimal" defaultValue={centsToDollars(product.savings_cents)} />
      </Field>
      <Checkbox id={`${id}-value-floor`} name="total_value_is_floor" checked={product.total_value_is_floor}>
        Show the total value as a floor (“$4,500+”)
      </Checkbox>
      <Checkbox id={`${id}-savings-floor`} name="savings_is_floor" checked={product.savings_is_floor}>
        Show the savings as a floor (“save over $3,000”)
      </Checkbox>
      <Field id={`${id}-checkout`} label="Checkout link" error={errors.checkout_url} hint="An https:// link">
        <Input name="checkout_url" type="url" defaultValue={product.checkout_url} />
      </Field>
      <Field
        id={`${id}-video`}
        label="Sales video (embed link)"
        error={errors.sales_video_url}
        hint="Optional; https://"
      >
        <Input name="sales_video_url" type="url" defaultValue={product.sales_video_url ?? ''} />
      </Field>
      <div className="sm:col-span-2">
        <Field
          id={`${id}-ids`}
          label="Provider ids that grant this product"
          error={errors.provider_ids}
          hint="One a line: the kind, a space, the id. Kinds: shopify_product, shopify_variant, stripe_price, stripe_product."
        >
          <Textarea
            name="provider_ids"
            rows={4}
            defaultValue={providerIdsText(product.provider_ids)}
            spellCheck={false}
          />
        </Field>
      </div>
    </fieldset>
  );
}

function Checkbox({ id, name, checked, children }: { id: string; name: string; checked: boolean; children: string }) {
  return (
    <div className="flex items-center gap-2">
      <input id={id} name={name} type="checkbox" defaultChecked={checked} className="size-5" />
      <label htmlFor={id} className="text-navy-800 text-sm">
        {children}
      </label>
    </div>
  );
}
