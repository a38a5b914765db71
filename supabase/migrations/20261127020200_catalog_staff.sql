-- The staff catalog page's functions: read the catalog with its ids, unmatched sales and audit;
-- save a product; map an unmatched product to a tier. Each public function is a security invoker
-- wrapper over a private definer one that refuses anyone but staff (42501). A refused field is
-- a 22023 (or 23505 for an id another tier holds) whose hint names the field, so the page shows
-- the message at that field. See docs/decisions/068-catalog-in-the-database.md.

/** Raises a field error: the message for staff, the field's name as the hint. */
create function private.catalog_field_error(p_field text, p_message text, p_code text default '22023')
returns void
language plpgsql
set search_path = ''
as $$
begin
  raise exception '%', p_message using errcode = p_code, hint = p_field;
end
$$;

comment on function private.catalog_field_error(text, text, text) is 'Raises a catalog field error (hint = the field).';
revoke execute on function private.catalog_field_error(text, text, text) from public, anon, authenticated, service_role;

/** An audit row's change as staff read it: "field: old → new; …" for each field that changed. */
create function private.catalog_audit_changes(p_old jsonb, p_new jsonb)
returns text
language sql
immutable
set search_path = ''
as $$
  select string_agg(format('%s: %s → %s', k.key, coalesce(p_old ->> k.key, '—'), coalesce(p_new ->> k.key, '—')), '; '
    order by k.key)
  from (select jsonb_object_keys(coalesce(p_old, '{}'::jsonb) || coalesce(p_new, '{}'::jsonb)) as key) k
  where k.key not in ('tier', 'created_at', 'created_by') and (p_old -> k.key) is distinct from (p_new -> k.key)
$$;

comment on function private.catalog_audit_changes(jsonb, jsonb) is 'The fields an audit row changed, as "field: old → new; …".';
revoke execute on function private.catalog_audit_changes(jsonb, jsonb) from public, anon, authenticated, service_role;

/** The catalog as staff see it: products with their ids, open unmatched sales, the latest audit. */
create function private.staff_catalog()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'only staff can read the catalog' using errcode = '42501';
  end if;
  return jsonb_build_object(
    'products', coalesce((
      select jsonb_agg(to_jsonb(c) - 'updated_by' || jsonb_build_object('provider_ids', coalesce((
        select jsonb_agg(jsonb_build_object('kind', i.kind, 'id', i.provider_id) order by i.kind, i.provider_id)
        from public.catalog_provider_ids i where i.tier = c.tier), '[]'::jsonb)) order by c.tier)
      from public.catalog_products c), '[]'::jsonb),
    'unmatched_count', (select count(*) from public.unmatched_sales u where u.resolved_at is null),
    'unmatched', coalesce((
      select jsonb_agg(to_jsonb(u) - 'purchase_id' - 'resolved_at' - 'line_ids' || jsonb_build_object('provider_ids', (
        select coalesce(jsonb_agg(distinct jsonb_build_object('kind', kv.key, 'id', kv.value)), '[]'::jsonb)
        from jsonb_array_elements(u.line_ids) l (line), jsonb_each_text(l.line) kv (key, value))) order by u.occurred_at desc)
      from (select * from public.unmatched_sales u where u.resolved_at is null order by u.occurred_at desc limit 500) u),
      '[]'::jsonb),
    'audit', coalesce((
      select jsonb_agg(jsonb_build_object('id', a.id, 'changed_at', a.changed_at, 'tier', a.tier, 'what', a.what,
        'operation', a.operation, 'changed_by_email', (select us.email from auth.users us where us.id = a.changed_by),
        'changes', private.catalog_audit_changes(a.old_value, a.new_value)) order by a.changed_at desc, a.id desc)
      from (select * from public.catalog_audit a order by a.changed_at desc, a.id desc limit 100) a), '[]'::jsonb)
  );
end
$$;

comment on function private.staff_catalog() is
  'Staff only (else 42501): the catalog with provider ids, the open unmatched sales (newest 500) and their count, the latest 100 audit rows. Called by public.staff_catalog().';
revoke execute on function private.staff_catalog() from public, anon, authenticated, service_role;
grant execute on function private.staff_catalog() to authenticated;

create function public.staff_catalog()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.staff_catalog()
$$;

comment on function public.staff_catalog() is
  'Staff only (else 42501): the catalog, unmatched sales and audit as jsonb. Security invoker over private.staff_catalog().';
revoke execute on function public.staff_catalog() from public, anon, authenticated, service_role;
grant execute on function public.staff_catalog() to authenticated;

/** A whole number of cents in a jsonb field, within bounds; else the field's error. */
create function private.catalog_cents(p_value jsonb, p_field text, p_label text, p_required boolean)
returns integer
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_value is null or p_value = 'null'::jsonb then
    if p_required then
      perform private.catalog_field_error(p_field, p_label || ' is required');
    end if;
    return null;
  end if;
  if jsonb_typeof(p_value) <> 'number' or (p_value #>> '{}')::numeric <> trunc((p_value #>> '{}')::numeric)
     or (p_value #>> '{}')::numeric < p_required::integer
     or (p_value #>> '{}')::numeric > 100000000 then
    perform private.catalog_field_error(p_field, p_label || ' must be an amount in dollars and cents, like 49 or 24.95');
  end if;
  return (p_value #>> '{}')::integer;
end
$$;

comment on function private.catalog_cents(jsonb, text, text, boolean) is 'Reads an amount in cents from a catalog field, or raises its field error.';
revoke execute on function private.catalog_cents(jsonb, text, text, boolean) from public, anon, authenticated, service_role;

/** An https URL with a host in a catalog field; else the field's error. */
create function private.catalog_url(p_value text, p_field text, p_label text, p_required boolean)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_url text := nullif(btrim(coalesce(p_value, '')), '');
begin
  if v_url is null then
    if p_required then
      perform private.catalog_field_error(p_field, p_label || ' is required');
    end if;
    return null;
  end if;
  if v_url !~ '^https://[^\s/?#@]+\.[^\s/?#@]+(/\S*)?$' or char_length(v_url) > 2000 then
    perform private.catalog_field_error(p_field, p_label || ' must be an https:// link');
  end if;
  return v_url;
end
$$;

comment on function private.catalog_url(text, text, text, boolean) is 'Reads an https URL from a catalog field, or raises its field error.';
revoke execute on function private.catalog_url(text, text, text, boolean) from public, anon, authenticated, service_role;

/** Replaces a product's provider ids with `p_ids` ([{kind, id}]); an id another tier holds is refused. */
create function private.catalog_set_ids(p_tier public.tier, p_ids jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_taken record;
begin
  if jsonb_typeof(p_ids) is distinct from 'array' or exists (
    select 1 from jsonb_array_elements(p_ids) e
    where jsonb_typeof(e) <> 'object'
       or coalesce(e ->> 'kind', '') not in ('shopify_product', 'shopify_variant', 'stripe_price', 'stripe_product')
       or coalesce(e ->> 'id', '') !~ '^[A-Za-z0-9_.:-]{1,255}$'
  ) then
    perform private.catalog_field_error('provider_ids',
      'Each provider id is letters, digits, _ . : or -, with its kind (Shopify product or variant, Stripe price or product)');
  end if;
  select i.kind, i.provider_id, c.name into v_taken
  from jsonb_array_elements(p_ids) e
  join public.catalog_provider_ids i on i.kind = e ->> 'kind' and i.provider_id = e ->> 'id'
  join public.catalog_products c on c.tier = i.tier
  where i.tier <> p_tier
  limit 1;
  if found then
    perform private.catalog_field_error('provider_ids',
      format('%s already grants %s: one provider id grants one product', v_taken.provider_id, v_taken.name), '23505');
  end if;
  delete from public.catalog_provider_ids i
  where i.tier = p_tier
    and not exists (select 1 from jsonb_array_elements(p_ids) e where e ->> 'kind' = i.kind and e ->> 'id' = i.provider_id);
  insert into public.catalog_provider_ids (kind, provider_id, tier, created_by)
  select distinct e ->> 'kind', e ->> 'id', p_tier, (select auth.uid()) from jsonb_array_elements(p_ids) e
  on conflict (kind, provider_id) do nothing;
end
$$;

comment on function private.catalog_set_ids(public.tier, jsonb) is 'Replaces a product''s provider ids, refusing an id another product holds.';
revoke execute on function private.catalog_set_ids(public.tier, jsonb) from public, anon, authenticated, service_role;

/**
 * Staff only: saves one product (name, price_cents, total_value_cents, total_value_is_floor,
 * savings_cents, savings_is_floor, checkout_url, sales_video_url, provider_ids), then records
 * the unmatched sales its ids now match. Returns {resolved: n}.
 */
create function private.staff_save_product(p_tier public.tier, p_product jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_name text := btrim(coalesce(p_product ->> 'name', ''));
  v_price integer;
  v_value integer;
  v_savings integer;
  v_checkout text;
  v_video text;
begin
  if not private.is_staff() then
    raise exception 'only staff can change the catalog' using errcode = '42501';
  end if;
  if p_tier is null or jsonb_typeof(p_product) is distinct from 'object' then
    raise exception 'a tier and the product''s fields are required' using errcode = '22023';
  end if;
  if char_length(v_name) not between 1 and 80 then
    perform private.catalog_field_error('name', 'A name of 1 to 80 characters is required');
  end if;
  v_price := private.catalog_cents(p_product -> 'price_cents', 'price', 'The price', true);
  v_value := private.catalog_cents(p_product -> 'total_value_cents', 'total_value', 'The total value', false);
  v_savings := private.catalog_cents(p_product -> 'savings_cents', 'savings', 'The savings', false);
  v_checkout := private.catalog_url(p_product ->> 'checkout_url', 'checkout_url', 'A checkout link', true);
  v_video := private.catalog_url(p_product ->> 'sales_video_url', 'sales_video_url', 'The sales video', false);
  -- The site's Content-Security-Policy lets only this player into a frame
  -- (scripts/build/security-headers.mjs, VIDEO_PLAYER_ORIGIN).
  if v_video !~ '^https://www\.youtube-nocookie\.com/embed/[A-Za-z0-9_-]{1,100}$' then
    perform private.catalog_field_error('sales_video_url',
      'The sales video must be a YouTube embed link: https://www.youtube-nocookie.com/embed/<video id>');
  end if;
  perform pg_advisory_xact_lock(private.catalog_lock_key());
  insert into public.catalog_products as c (tier, name, price_cents, total_value_cents, total_value_is_floor,
    savings_cents, savings_is_floor, checkout_url, sales_video_url, updated_by)
  values (p_tier, v_name, v_price, v_value, coalesce((p_product ->> 'total_value_is_floor')::boolean, false),
    v_savings, coalesce((p_product ->> 'savings_is_floor')::boolean, false), v_checkout, v_video, (select auth.uid()))
  on conflict (tier) do update set
    name = excluded.name, price_cents = excluded.price_cents, total_value_cents = excluded.total_value_cents,
    total_value_is_floor = excluded.total_value_is_floor, savings_cents = excluded.savings_cents,
    savings_is_floor = excluded.savings_is_floor, checkout_url = excluded.checkout_url,
    sales_video_url = excluded.sales_video_url, updated_by = excluded.updated_by, updated_at = now();
  perform private.catalog_set_ids(p_tier, coalesce(p_product -> 'provider_ids', '[]'::jsonb));
  return jsonb_build_object('resolved', private.resolve_unmatched_sales());
end
$$;

comment on function private.staff_save_product(public.tier, jsonb) is
  'Staff only (else 42501): saves a catalog product and its provider ids (22023 / 23505 with the field as hint), then records the unmatched sales they match. Called by public.staff_save_product().';
revoke execute on function private.staff_save_product(public.tier, jsonb) from public, anon, authenticated, service_role;
grant execute on function private.staff_save_product(public.tier, jsonb) to authenticated;

create function public.staff_save_product(p_tier public.tier, p_product jsonb)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.staff_save_product(p_tier, p_product)
$$;

comment on function public.staff_save_product(public.tier, jsonb) is
  'Staff only (else 42501): saves one catalog product; a refused field is 22023 or 23505 with the field''s name as hint. Security invoker over private.staff_save_product().';
revoke execute on function public.staff_save_product(public.tier, jsonb) from public, anon, authenticated, service_role;
grant execute on function public.staff_save_product(public.tier, jsonb) to authenticated;

/**
 * Staff only, one step: the provider id now grants `p_tier`, and every unmatched sale it
 * matches is recorded as a purchase (each new buyer's invitation queued once by the ledger).
 * Mapping an id to the tier it already grants changes nothing. Returns {resolved: n}.
 */
create function private.staff_map_provider_id(p_kind text, p_provider_id text, p_tier public.tier)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ids jsonb;
begin
  if not private.is_staff() then
    raise exception 'only staff can change the catalog' using errcode = '42501';
  end if;
  if p_tier is null or not exists (select 1 from public.catalog_products c where c.tier = p_tier) then
    perform private.catalog_field_error('tier', 'Choose a product of the catalog');
  end if;
  perform pg_advisory_xact_lock(private.catalog_lock_key());
  select coalesce(jsonb_agg(jsonb_build_object('kind', i.kind, 'id', i.provider_id)), '[]'::jsonb) into v_ids
  from public.catalog_provider_ids i where i.tier = p_tier;
  perform private.catalog_set_ids(p_tier, v_ids || jsonb_build_array(jsonb_build_object('kind', p_kind, 'id', p_provider_id)));
  return jsonb_build_object('resolved', private.resolve_unmatched_sales());
end
$$;

comment on function private.staff_map_provider_id(text, text, public.tier) is
  'Staff only (else 42501): adds a provider id to a product and records every unmatched sale it matches. Called by public.staff_map_provider_id().';
revoke execute on function private.staff_map_provider_id(text, text, public.tier) from public, anon, authenticated, service_role;
grant execute on function private.staff_map_provider_id(text, text, public.tier) to authenticated;

create function public.staff_map_provider_id(p_kind text, p_provider_id text, p_tier public.tier)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.staff_map_provider_id(p_kind, p_provider_id, p_tier)
$$;

comment on function public.staff_map_provider_id(text, text, public.tier) is
  'Staff only (else 42501): maps a provider id to a product in one step and grants its unmatched sales. Security invoker over private.staff_map_provider_id().';
revoke execute on function public.staff_map_provider_id(text, text, public.tier) from public, anon, authenticated, service_role;
grant execute on function public.staff_map_provider_id(text, text, public.tier) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- The static host's build hook: a change of the catalog's products asks the host to rebuild the
-- prerendered pages. Hosted projects have pg_net; the URL is a Vault secret (README, "Going
-- live"): select vault.create_secret('https://api.netlify.com/build_hooks/…', 'site_build_hook_url');
-- Without pg_net, Vault or the secret (the local stand-in, the test server) it does nothing.

create function private.request_site_build()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_url text;
begin
  if to_regclass('vault.decrypted_secrets') is null or to_regnamespace('net') is null then
    return null;
  end if;
  execute 'select decrypted_secret from vault.decrypted_secrets where name = $1' into v_url using 'site_build_hook_url';
  if coalesce(v_url, '') !~ '^https://' then
    return null;
  end if;
  -- pg_net queues the request and sends it after the transaction commits (net.http_post).
  execute 'select net.http_post(url := $1, body := $2)' using v_url, jsonb_build_object('trigger', 'catalog');
  return null;
end
$$;

comment on function private.request_site_build() is
  'Trigger: POSTs the static host''s build hook (Vault secret site_build_hook_url) through pg_net after a catalog change; nothing where either is missing.';
revoke execute on function private.request_site_build() from public, anon, authenticated, service_role;

create trigger catalog_products_request_build after insert or update or delete on public.catalog_products
  for each statement execute function private.request_site_build();
comment on trigger catalog_products_request_build on public.catalog_products is
  'Asks the static host to rebuild the public pages after a catalog change (private.request_site_build).';
