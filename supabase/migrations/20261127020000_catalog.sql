-- The catalog in the database: what each product (the ebook and the three bundles) is called,
-- the price the public pages show, its total value and savings, its checkout link and sales
-- video, and the provider ids whose sale grants its tier. The purchase webhook reads it for
-- every sale (record_catalog_sale), so a new Stripe price or Shopify product needs no deploy;
-- a paid sale that matches nothing is kept in unmatched_sales until staff map its product
-- (staff_map_provider_id), which grants every such sale through the purchases ledger.
-- See docs/decisions/068-catalog-in-the-database.md.

-- ---------------------------------------------------------------------------------------------
-- The owner's settings: the time zone the dashboard counts days in.

/** True when `tz` is a time zone name PostgreSQL knows (pg_timezone_names). */
create function private.is_time_zone(tz text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select tz is not null and exists (select 1 from pg_catalog.pg_timezone_names n where n.name = tz)
$$;

comment on function private.is_time_zone(text) is 'True when tz names a time zone PostgreSQL knows.';
revoke execute on function private.is_time_zone(text) from public, anon, authenticated, service_role;

create table public.owner_settings (
  id boolean primary key default true check (id),
  time_zone text not null default 'America/New_York' check (private.is_time_zone(time_zone))
);

comment on table public.owner_settings is
  'One row: the owner''s settings. time_zone is the zone the staff dashboard counts its days in (change it in the SQL editor: update owner_settings set time_zone = ''Europe/London''). SQL only.';
insert into public.owner_settings (id) values (true);

alter table public.owner_settings enable row level security;
revoke all on table public.owner_settings from public, anon, authenticated, service_role;

create policy "No API access to owner settings"
  on public.owner_settings as restrictive for all to anon, authenticated using (false) with check (false);
comment on policy "No API access to owner settings" on public.owner_settings is
  'Deny-all for anon and authenticated: the dashboard reads the setting through staff_dashboard().';

-- ---------------------------------------------------------------------------------------------
-- The catalog

create table public.catalog_products (
  tier public.tier primary key,
  name text not null constraint catalog_products_name_check check (char_length(btrim(name)) between 1 and 80),
  price_cents integer not null constraint catalog_products_price_check check (price_cents between 1 and 100000000),
  total_value_cents integer constraint catalog_products_total_value_check
    check (total_value_cents is null or total_value_cents between 0 and 100000000),
  total_value_is_floor boolean not null default false,
  savings_cents integer constraint catalog_products_savings_check
    check (savings_cents is null or savings_cents between 0 and 100000000),
  savings_is_floor boolean not null default false,
  checkout_url text not null constraint catalog_products_checkout_url_check
    check (checkout_url ~ '^https://[^\s/?#@]+\.[^\s/?#@]+(/\S*)?$' and char_length(checkout_url) <= 2000),
  sales_video_url text constraint catalog_products_sales_video_url_check
    check (sales_video_url is null or (sales_video_url ~ '^https://[^\s/?#@]+\.[^\s/?#@]+(/\S*)?$'
           and char_length(sales_video_url) <= 2000)),
  updated_at timestamptz not null default now(),
  updated_by uuid references auth.users (id) on delete set null
);

comment on table public.catalog_products is
  'The ebook and each bundle as the public pages show them and the checkout sells them: name, price shown, total value, savings, checkout link, sales video. Anyone reads the public columns; staff write through staff_save_product().';
comment on column public.catalog_products.price_cents is 'The price the public pages show, in US cents (the checkout charges; this is display).';
comment on column public.catalog_products.total_value_is_floor is 'True when the value reads as a floor ("$4,500+").';
comment on column public.catalog_products.savings_is_floor is 'True when the savings read as a floor ("save over $3,000").';
comment on column public.catalog_products.checkout_url is 'Where the purchase button leads: an https link on the checkout.';
comment on column public.catalog_products.sales_video_url is 'An https embed URL of the sales video (the landing page shows the ebook''s).';
comment on constraint catalog_products_checkout_url_check on public.catalog_products is
  'A checkout link is required and is an https URL with a host.';

alter table public.catalog_products enable row level security;
revoke all on table public.catalog_products from public, anon, authenticated, service_role;
grant select (tier, name, price_cents, total_value_cents, total_value_is_floor, savings_cents, savings_is_floor,
  checkout_url, sales_video_url) on table public.catalog_products to anon, authenticated;
grant select on table public.catalog_products to service_role;

create policy "Anyone reads the catalog"
  on public.catalog_products for select to anon, authenticated using (true);
comment on policy "Anyone reads the catalog" on public.catalog_products is
  'The public pages read the catalog''s public columns (column grants leave out who changed it and when).';
create policy "No client writes to the catalog"
  on public.catalog_products as restrictive for all to anon, authenticated using (true) with check (false);
comment on policy "No client writes to the catalog" on public.catalog_products is
  'Restrictive: staff change the catalog only through staff_save_product().';

create table public.catalog_provider_ids (
  kind text not null check (kind in ('shopify_product', 'shopify_variant', 'stripe_price', 'stripe_product')),
  provider_id text not null constraint catalog_provider_ids_id_check check (provider_id ~ '^[A-Za-z0-9_.:-]{1,255}$'),
  tier public.tier not null references public.catalog_products (tier) on delete cascade,
  created_at timestamptz not null default now(),
  created_by uuid references auth.users (id) on delete set null,
  constraint catalog_provider_ids_pkey primary key (kind, provider_id)
);

comment on table public.catalog_provider_ids is
  'Which provider ids grant which tier: Shopify product or variant ids, Stripe price or product ids (a new price of the same Stripe product still grants). Staff read; written through staff_save_product() and staff_map_provider_id().';
comment on constraint catalog_provider_ids_pkey on public.catalog_provider_ids is
  'One provider id grants one tier: an id claimed by two tiers is refused.';
create index catalog_provider_ids_tier_idx on public.catalog_provider_ids (tier);
comment on index public.catalog_provider_ids_tier_idx is 'A product''s ids (the staff catalog page, the cascade).';

alter table public.catalog_provider_ids enable row level security;
revoke all on table public.catalog_provider_ids from public, anon, authenticated, service_role;
grant select on table public.catalog_provider_ids to authenticated, service_role;

create policy "Staff read provider ids"
  on public.catalog_provider_ids for select to authenticated using ((select private.is_staff()));
comment on policy "Staff read provider ids" on public.catalog_provider_ids is 'Staff select every provider id; nobody else any.';
create policy "No client writes to provider ids"
  on public.catalog_provider_ids as restrictive for all to anon, authenticated using (true) with check (false);
comment on policy "No client writes to provider ids" on public.catalog_provider_ids is
  'Restrictive: provider ids change only through the staff functions.';

create table public.catalog_audit (
  id bigint generated always as identity primary key,
  changed_at timestamptz not null default now(),
  changed_by uuid references auth.users (id) on delete set null,
  tier public.tier not null,
  what text not null check (what in ('product', 'provider_id')),
  operation text not null check (operation in ('insert', 'update', 'delete')),
  old_value jsonb,
  new_value jsonb
);

comment on table public.catalog_audit is
  'Every change of the catalog: who (auth.uid(), null from SQL), when, the product, and the row before and after. Staff read; only the catalog triggers write.';
create index catalog_audit_changed_at_idx on public.catalog_audit (changed_at desc);
comment on index public.catalog_audit_changed_at_idx is 'The latest changes first (the staff catalog page).';

alter table public.catalog_audit enable row level security;
revoke all on table public.catalog_audit from public, anon, authenticated, service_role;
grant select on table public.catalog_audit to authenticated, service_role;

create policy "Staff read the catalog audit"
  on public.catalog_audit for select to authenticated using ((select private.is_staff()));
comment on policy "Staff read the catalog audit" on public.catalog_audit is 'Staff select the audit; nobody else any.';
create policy "No client writes to the catalog audit"
  on public.catalog_audit as restrictive for all to anon, authenticated using (true) with check (false);
comment on policy "No client writes to the catalog audit" on public.catalog_audit is
  'Restrictive: only the catalog triggers write the audit.';

/** Trigger on the catalog tables: one audit row per changed row, the whole row before and after. */
create function private.audit_catalog_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_old jsonb := case when tg_op = 'INSERT' then null else to_jsonb(old) - 'updated_at' - 'updated_by' end;
  v_new jsonb := case when tg_op = 'DELETE' then null else to_jsonb(new) - 'updated_at' - 'updated_by' end;
begin
  if v_old is not distinct from v_new then
    return null;
  end if;
  insert into public.catalog_audit (changed_by, tier, what, operation, old_value, new_value)
  values ((select auth.uid()), coalesce(new.tier, old.tier),
          case when tg_table_name = 'catalog_products' then 'product' else 'provider_id' end,
          lower(tg_op), v_old, v_new);
  return null;
end
$$;

comment on function private.audit_catalog_change() is 'Trigger: writes catalog_audit for each changed catalog row.';
revoke execute on function private.audit_catalog_change() from public, anon, authenticated, service_role;

create trigger catalog_products_audit after insert or update or delete on public.catalog_products
  for each row execute function private.audit_catalog_change();
comment on trigger catalog_products_audit on public.catalog_products is 'Audits every product change (private.audit_catalog_change).';
create trigger catalog_provider_ids_audit after insert or update or delete on public.catalog_provider_ids
  for each row execute function private.audit_catalog_change();
comment on trigger catalog_provider_ids_audit on public.catalog_provider_ids is 'Audits every provider id change (private.audit_catalog_change).';

-- ---------------------------------------------------------------------------------------------
-- Unmatched sales

create table public.unmatched_sales (
  id uuid primary key default gen_random_uuid(),
  provider text not null check (provider in ('shopify', 'stripe')),
  event_id text not null check (char_length(event_id) between 1 and 255),
  order_id text not null check (char_length(order_id) between 1 and 255),
  email text not null check (email = lower(email) and char_length(email) between 3 and 320),
  amount_cents bigint not null check (amount_cents >= 0),
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  line_ids jsonb not null check (jsonb_typeof(line_ids) = 'array'),
  occurred_at timestamptz not null,
  received_at timestamptz not null default now(),
  refunded_at timestamptz,
  resolved_at timestamptz,
  purchase_id uuid references public.purchases (id) on delete set null,
  constraint unmatched_sales_provider_order_key unique (provider, order_id),
  constraint unmatched_sales_provider_event_key unique (provider, event_id)
);

comment on table public.unmatched_sales is
  'Paid sales whose line items matched no catalog provider id: kept (order, e-mail, amount, currency, the provider ids) until staff map the product, which records each as a purchase (resolved_at, purchase_id). Staff read; only the webhook and staff functions write.';
comment on column public.unmatched_sales.line_ids is
  'The sale''s line items as provider ids: [{"stripe_price": "price_…", "stripe_product": "prod_…"}, {"shopify_product": "…", "shopify_variant": "…"}].';
comment on column public.unmatched_sales.refunded_at is 'When a refund of the sale arrived (it then grants nothing once mapped).';
create index unmatched_sales_open_idx on public.unmatched_sales (received_at) where resolved_at is null;
comment on index public.unmatched_sales_open_idx is 'The sales still waiting for a mapping (staff pages, the dashboard).';

alter table public.unmatched_sales enable row level security;
revoke all on table public.unmatched_sales from public, anon, authenticated, service_role;
grant select on table public.unmatched_sales to authenticated;
grant all on table public.unmatched_sales to service_role;

create policy "Staff read unmatched sales"
  on public.unmatched_sales for select to authenticated using ((select private.is_staff()));
comment on policy "Staff read unmatched sales" on public.unmatched_sales is 'Staff select every unmatched sale; nobody else any.';
create policy "No client writes to unmatched sales"
  on public.unmatched_sales as restrictive for all to anon, authenticated using (true) with check (false);
comment on policy "No client writes to unmatched sales" on public.unmatched_sales is
  'Restrictive: the webhook (service_role) records them, staff resolve them through staff_map_provider_id().';

-- The dashboard counts sales and refunds by day.
create index purchases_created_at_idx on public.purchases (created_at);
comment on index public.purchases_created_at_idx is 'Sales by time (the staff dashboard).';
create index purchases_refunded_at_idx on public.purchases (refunded_at) where refunded_at is not null;
comment on index public.purchases_refunded_at_idx is 'Refunds by time (the staff dashboard).';

-- Audit ids come only from the audit trigger.
revoke all on sequence public.catalog_audit_id_seq from public, anon, authenticated, service_role;
