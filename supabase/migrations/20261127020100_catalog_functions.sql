-- The catalog's functions: the webhook's sale and refund against the catalog (service_role), the
-- staff catalog page (read, save a product, map an unmatched product), and the build hook a
-- catalog change calls. See docs/decisions/068-catalog-in-the-database.md.

/**
 * The advisory lock key of the catalog's provider ids. A sale takes it shared while it matches
 * its line items, staff take it exclusive while they change ids and grant the unmatched sales:
 * so a sale is either matched by a new id or already unmatched when staff grant, never lost
 * in between.
 */
create function private.catalog_lock_key()
returns bigint
language sql
immutable
set search_path = ''
as $$
  select 6801::bigint
$$;

comment on function private.catalog_lock_key() is 'The advisory lock key that orders catalog id changes against sales.';
revoke execute on function private.catalog_lock_key() from public, anon, authenticated, service_role;

/** The tier a sale's line items grant: the highest tier any of their provider ids maps to, else null. */
create function private.catalog_match(p_lines jsonb)
returns public.tier
language sql
stable
security definer
set search_path = ''
as $$
  select i.tier
  from jsonb_array_elements(case when jsonb_typeof(p_lines) = 'array' then p_lines else '[]'::jsonb end) l (line)
  cross join lateral jsonb_each_text(case when jsonb_typeof(l.line) = 'object' then l.line else '{}'::jsonb end) kv (key, value)
  join public.catalog_provider_ids i on i.kind = kv.key and i.provider_id = kv.value
  order by i.tier desc
  limit 1
$$;

comment on function private.catalog_match(jsonb) is
  'The highest tier any provider id of the line items ([{"stripe_price": "…"}, …]) maps to; null when none does.';
revoke execute on function private.catalog_match(jsonb) from public, anon, authenticated, service_role;

/**
 * Records the open unmatched sales that the catalog now matches as purchases, through the
 * ledger's own record_purchase (which queues each new buyer's invitation once, and records a
 * sale whose refund came first as refunded). Returns how many it recorded. The caller holds
 * the catalog lock exclusively.
 */
create function private.resolve_unmatched_sales()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sale record;
  v_tier public.tier;
  v_result jsonb;
  v_count integer := 0;
begin
  for v_sale in
    select * from public.unmatched_sales u where u.resolved_at is null order by u.occurred_at for update
  loop
    v_tier := private.catalog_match(v_sale.line_ids);
    continue when v_tier is null;
    v_result := private.record_purchase(v_sale.provider, v_sale.event_id, v_sale.order_id, v_sale.email, v_tier::text,
      v_tier, v_sale.amount_cents, v_sale.currency, v_sale.occurred_at);
    update public.unmatched_sales u
    set resolved_at = now(), purchase_id = (v_result ->> 'purchase_id')::uuid
    where u.id = v_sale.id;
    v_count := v_count + 1;
  end loop;
  return v_count;
end
$$;

comment on function private.resolve_unmatched_sales() is
  'Records every open unmatched sale the catalog now matches as a purchase (record_purchase); returns how many.';
revoke execute on function private.resolve_unmatched_sales() from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- The webhook (service_role)

/**
 * A paid sale, matched against the catalog now: a known product is recorded as record_sale
 * records it (the purchase and the buyer's invitation claim); a sale matching nothing is kept
 * in unmatched_sales. Returns record_sale's answer plus `unmatched`, `tier` and `product`.
 */
create function private.record_catalog_sale(
  p_provider text, p_event_id text, p_order_id text, p_email text, p_lines jsonb,
  p_amount_cents bigint, p_currency text, p_occurred_at timestamptz
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_tier public.tier;
  v_id uuid;
begin
  if jsonb_typeof(p_lines) is distinct from 'array' or jsonb_array_length(p_lines) > 250 then
    raise exception 'line ids must be an array of at most 250 lines' using errcode = '22023';
  end if;
  perform pg_advisory_xact_lock_shared(private.catalog_lock_key());
  v_tier := private.catalog_match(p_lines);
  if v_tier is not null then
    return private.record_sale(p_provider, p_event_id, p_order_id, p_email, v_tier::text, v_tier,
      p_amount_cents, p_currency, p_occurred_at)
      || jsonb_build_object('unmatched', false, 'tier', v_tier, 'product', v_tier::text);
  end if;
  -- Already recorded as a purchase (an id removed from the catalog since): a duplicate.
  if exists (select 1 from public.purchases p where p.provider = p_provider and p.order_id = p_order_id) then
    return jsonb_build_object('duplicate', true, 'unmatched', false, 'account', 'none');
  end if;
  insert into public.unmatched_sales (provider, event_id, order_id, email, amount_cents, currency, line_ids, occurred_at)
  values (p_provider, p_event_id, p_order_id, lower(btrim(p_email)), p_amount_cents, upper(btrim(p_currency)), p_lines,
          coalesce(p_occurred_at, now()))
  on conflict do nothing
  returning id into v_id;
  return jsonb_build_object('duplicate', v_id is null, 'unmatched', true, 'purchase_id', null, 'user_id', null,
    'account', 'none');
end
$$;

comment on function private.record_catalog_sale(text, text, text, text, jsonb, bigint, text, timestamptz) is
  'Records a paid sale against the catalog: a purchase (record_sale) or an unmatched sale. Called by public.record_catalog_sale().';
revoke execute on function private.record_catalog_sale(text, text, text, text, jsonb, bigint, text, timestamptz)
  from public, anon, authenticated;
grant execute on function private.record_catalog_sale(text, text, text, text, jsonb, bigint, text, timestamptz)
  to service_role;

create function public.record_catalog_sale(
  p_provider text, p_event_id text, p_order_id text, p_email text, p_lines jsonb,
  p_amount_cents bigint, p_currency text, p_occurred_at timestamptz
)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.record_catalog_sale(p_provider, p_event_id, p_order_id, p_email, p_lines, p_amount_cents, p_currency, p_occurred_at)
$$;

comment on function public.record_catalog_sale(text, text, text, text, jsonb, bigint, text, timestamptz) is
  'service_role only (the purchase webhook): records a paid sale against the catalog, idempotently; an unknown product is kept as an unmatched sale. Security invoker over private.record_catalog_sale().';
revoke execute on function public.record_catalog_sale(text, text, text, text, jsonb, bigint, text, timestamptz)
  from public, anon, authenticated;
grant execute on function public.record_catalog_sale(text, text, text, text, jsonb, bigint, text, timestamptz)
  to service_role;

/**
 * A refund. With line ids (Shopify's refunded line items), a refund returning neither a
 * catalog product nor a product of the order's unmatched sale is ignored (shipping, an
 * amount); without (Stripe's full refund), it applies. Recorded by record_refund (a refund
 * before its sale is remembered), and marked on the order's unmatched sale.
 */
create function private.record_catalog_refund(
  p_provider text, p_event_id text, p_order_id text, p_occurred_at timestamptz, p_lines jsonb
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_result jsonb;
  v_unmatched boolean;
begin
  if p_lines is not null and private.catalog_match(p_lines) is null and not exists (
    select 1
    from public.unmatched_sales u,
      jsonb_array_elements(case when jsonb_typeof(p_lines) = 'array' then p_lines else '[]'::jsonb end) l (line),
      jsonb_each_text(case when jsonb_typeof(l.line) = 'object' then l.line else '{}'::jsonb end) kv (key, value)
    where u.provider = p_provider and u.order_id = p_order_id
      and u.line_ids @> jsonb_build_array(jsonb_build_object(kv.key, kv.value))
  ) then
    return jsonb_build_object('ignored', true, 'duplicate', false, 'found', false, 'unmatched', false);
  end if;
  v_result := private.record_refund(p_provider, p_event_id, p_order_id, p_occurred_at);
  update public.unmatched_sales u
  set refunded_at = coalesce(u.refunded_at, p_occurred_at, now())
  where u.provider = p_provider and u.order_id = p_order_id;
  v_unmatched := found;
  return v_result || jsonb_build_object('ignored', false, 'unmatched', v_unmatched);
end
$$;

comment on function private.record_catalog_refund(text, text, text, timestamptz, jsonb) is
  'Records a refund (record_refund) and marks the order''s unmatched sale refunded. Called by public.record_catalog_refund().';
revoke execute on function private.record_catalog_refund(text, text, text, timestamptz, jsonb) from public, anon, authenticated;
grant execute on function private.record_catalog_refund(text, text, text, timestamptz, jsonb) to service_role;

create function public.record_catalog_refund(
  p_provider text, p_event_id text, p_order_id text, p_occurred_at timestamptz, p_lines jsonb default null
)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.record_catalog_refund(p_provider, p_event_id, p_order_id, p_occurred_at, p_lines)
$$;

comment on function public.record_catalog_refund(text, text, text, timestamptz, jsonb) is
  'service_role only (the purchase webhook): records a refund idempotently, of a purchase or of an unmatched sale. Security invoker over private.record_catalog_refund().';
revoke execute on function public.record_catalog_refund(text, text, text, timestamptz, jsonb) from public, anon, authenticated;
grant execute on function public.record_catalog_refund(text, text, text, timestamptz, jsonb) to service_role;
