-- pgTAP, actor by actor: the catalog, its audit, unmatched sales and the dashboard, as anon, a
-- member (ebook@example.com), the webhook (service_role) and staff (staff@example.com). Each
-- refusal with the error or the empty result the client would see. Needs the seed (the spec's
-- catalog). One transaction, rolled back.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

select plan(45);

-- ---------------------------------------------------------------------------------------------
-- anon: the public columns, nothing else.
set local role anon;
select set_config('request.jwt.claims', '{"role": "anon"}', true);

select results_eq(
  $$ select tier::text, name, price_cents, checkout_url from public.catalog_products order by price_cents $$,
  $$ values ('ebook', 'Yes, You Can! ebook', 2495, 'https://shop.yesyoucanbook.com/products/yes-you-can-ebook'),
            ('foundation', 'Foundation Builder', 4900, 'https://checkout.yesyoucanbook.com/b/foundation-builder'),
            ('accelerated', 'Accelerated Success', 49900, 'https://checkout.yesyoucanbook.com/b/accelerated-success'),
            ('complete', 'Complete Transformation', 149500, 'https://checkout.yesyoucanbook.com/b/complete-transformation') $$,
  'anon reads the seeded catalog''s public columns');
select throws_ok('select updated_by from public.catalog_products', '42501', 'permission denied for table catalog_products',
  'anon: who changed the catalog is not public');
select throws_ok('update public.catalog_products set price_cents = 1', '42501', 'permission denied for table catalog_products',
  'anon: no update of the catalog');
select throws_ok('select * from public.catalog_provider_ids', '42501', 'permission denied for table catalog_provider_ids',
  'anon: no read of provider ids');
select throws_ok('select * from public.catalog_audit', '42501', 'permission denied for table catalog_audit', 'anon: no read of the audit');
select throws_ok('select * from public.unmatched_sales', '42501', 'permission denied for table unmatched_sales',
  'anon: no read of unmatched sales');
select throws_ok('select public.staff_catalog()', '42501', 'permission denied for function staff_catalog', 'anon: staff_catalog refused');
select throws_ok('select public.staff_dashboard()', '42501', 'permission denied for function staff_dashboard', 'anon: staff_dashboard refused');
select throws_ok($$ select public.record_catalog_sale('stripe', 'e', 'o', 'a@b.c', '[]', 1, 'USD', now()) $$,
  '42501', 'permission denied for function record_catalog_sale', 'anon: record_catalog_sale refused');
reset role;

-- ---------------------------------------------------------------------------------------------
-- A member: the same public columns, nothing more.
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000001", "role": "authenticated"}', true);

select is((select count(*) from public.catalog_products), 4::bigint, 'a member reads the catalog');
select throws_ok('select updated_at from public.catalog_products', '42501', 'permission denied for table catalog_products',
  'a member: when the catalog changed is not public');
select throws_ok('update public.catalog_products set price_cents = 1', '42501', 'permission denied for table catalog_products',
  'a member: no update of the catalog');
select is_empty('select * from public.catalog_provider_ids', 'a member reads no provider id');
select is_empty('select * from public.catalog_audit', 'a member reads no audit');
select is_empty('select * from public.unmatched_sales', 'a member reads no unmatched sale');
select throws_ok('select public.staff_catalog()', '42501', 'only staff can read the catalog', 'a member: staff_catalog refused');
select throws_ok($$ select public.staff_save_product('foundation', '{"name": "x", "price_cents": 1, "checkout_url": "https://a.b"}') $$,
  '42501', 'only staff can change the catalog', 'a member: staff_save_product refused');
select throws_ok($$ select public.staff_map_provider_id('stripe_price', 'price_x', 'complete') $$,
  '42501', 'only staff can change the catalog', 'a member: staff_map_provider_id refused');
select throws_ok('select public.staff_dashboard()', '42501', 'only staff can read the dashboard', 'a member: staff_dashboard refused');
reset role;

-- ---------------------------------------------------------------------------------------------
-- The webhook (service_role): sales and refunds against the catalog.
set local role service_role;
select set_config('request.jwt.claims', '{"role": "service_role"}', true);

select is(public.record_catalog_sale('stripe', 'evt_k1', 'ord_k1', 'known@example.com',
  '[{"stripe_price": "REPLACE_ME_stripe_price_foundation"}]', 4900, 'USD', now()) ->> 'tier', 'foundation',
  'a sale of a catalog price is recorded with its tier');
select is(public.record_catalog_sale('stripe', 'evt_u1', 'ord_u1', 'New1@Example.com',
  '[{"stripe_price": "price_new", "stripe_product": "prod_new"}]', 5900, 'usd', now()) ->> 'unmatched', 'true',
  'a sale of an unknown price is recorded as unmatched');
select is(public.record_catalog_sale('stripe', 'evt_u1', 'ord_u1', 'new1@example.com',
  '[{"stripe_price": "price_new"}]', 5900, 'USD', now()) ->> 'duplicate', 'true', 'a replayed unmatched sale is a duplicate');
select lives_ok($$ select public.record_catalog_sale('stripe', 'evt_u2', 'ord_u2', 'new2@example.com',
  '[{"stripe_price": "price_new"}]', 6000, 'EUR', now()) $$, 'a second unmatched sale of the same price');
select lives_ok($$ select public.record_catalog_sale('shopify', 'evt_u3', 'ord_u3', 'new3@example.com',
  '[{"shopify_product": "999", "shopify_variant": "998"}]', 100, 'USD', now()) $$, 'an unmatched Shopify sale');
select results_eq(
  $$ select email, amount_cents, currency, line_ids from public.unmatched_sales where order_id = 'ord_u1' $$,
  $$ values ('new1@example.com', 5900::bigint, 'USD', '[{"stripe_price": "price_new", "stripe_product": "prod_new"}]'::jsonb) $$,
  'the unmatched sale keeps the e-mail, amount, currency and provider ids');
select is(public.record_catalog_refund('stripe', 'evt_r2', 'ord_u2', now()) ->> 'unmatched', 'true',
  'a refund of an unmatched sale is recorded');
select isnt((select refunded_at from public.unmatched_sales where order_id = 'ord_u2'), null, 'the unmatched sale is marked refunded');
select is(public.record_catalog_refund('shopify', 'evt_r3', 'ord_u3', now(), '[{"shopify_product": "1"}]') ->> 'ignored', 'true',
  'a Shopify refund returning no product of the order is ignored');
select throws_ok($$ select public.staff_save_product('foundation', '{}') $$, '42501',
  'permission denied for function staff_save_product', 'service_role: staff_save_product refused');
select throws_ok('update public.catalog_products set price_cents = 1', '42501', 'permission denied for table catalog_products',
  'service_role: no update of the catalog table');
reset role;

-- ---------------------------------------------------------------------------------------------
-- Staff: read, save with every field checked, map an unmatched product, the dashboard.
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);

select is((public.staff_catalog() ->> 'unmatched_count')::integer, 3, 'staff see the unmatched sales with a count');
select throws_ok($$ select public.staff_save_product('foundation', '{"name": "Foundation Builder", "price_cents": 49.5,
  "checkout_url": "https://checkout.example.com/f"}') $$, '22023', 'The price must be an amount in dollars and cents, like 49 or 24.95',
  'a malformed price is refused');
select throws_ok($$ select public.staff_save_product('foundation', '{"name": "Foundation Builder", "price_cents": 4900,
  "checkout_url": "http://checkout.example.com/f"}') $$, '22023', 'A checkout link must be an https:// link',
  'a checkout link that is not https is refused');
select throws_ok($$ select public.staff_save_product('foundation', '{"name": "Foundation Builder", "price_cents": 4900,
  "checkout_url": " "}') $$, '22023', 'A checkout link is required', 'a product without a checkout link is refused');
select throws_ok($$ select public.staff_save_product('foundation', '{"name": "Foundation Builder", "price_cents": 4900,
  "checkout_url": "https://checkout.example.com/f",
  "provider_ids": [{"kind": "stripe_price", "id": "REPLACE_ME_stripe_price_ebook"}]}') $$, '23505',
  'REPLACE_ME_stripe_price_ebook already grants Yes, You Can! ebook: one provider id grants one product',
  'a provider id claimed by two products is refused');
select is((select price_cents from public.catalog_products where tier = 'foundation'), 4900, 'nothing refused was saved');
select lives_ok($$ select public.staff_save_product('foundation', '{"name": "Foundation Builder", "price_cents": 5900,
  "total_value_cents": 19700, "savings_cents": 13800, "checkout_url": "https://checkout.example.com/foundation-new",
  "provider_ids": [{"kind": "shopify_product", "id": "REPLACE_ME_shopify_product_foundation"},
                   {"kind": "stripe_price", "id": "REPLACE_ME_stripe_price_foundation"}]}') $$, 'staff save a product');
select results_eq(
  $$ select changed_by, old_value ->> 'price_cents', new_value ->> 'price_cents', new_value ->> 'checkout_url'
     from public.catalog_audit where what = 'product' and tier = 'foundation' and changed_by is not null $$,
  $$ values ('00000000-0000-4000-8000-000000000006'::uuid, '4900', '5900', 'https://checkout.example.com/foundation-new') $$,
  'the audit says who changed what, old and new');
select is(public.staff_map_provider_id('stripe_price', 'price_new', 'foundation') ->> 'resolved', '2',
  'mapping the price grants both of its unmatched sales in one step');
select results_eq(
  $$ select order_id, tier::text, status from public.purchases where order_id in ('ord_u1', 'ord_u2') order by order_id $$,
  $$ values ('ord_u1', 'foundation', 'paid'), ('ord_u2', 'foundation', 'refunded') $$,
  'the mapped sales are purchases; the refunded one grants nothing');
select is(public.staff_map_provider_id('stripe_price', 'price_new', 'foundation') ->> 'resolved', '0',
  'mapping again grants nothing twice');
select is((public.staff_catalog() ->> 'unmatched_count')::integer, 1, 'one unmatched sale is left');
select results_eq(
  $$ select p -> 'currencies' from jsonb_array_elements(public.staff_dashboard() -> 'periods') p where (p ->> 'days')::int = 1 $$,
  $$ values ('[{"currency": "EUR", "net_cents": 0, "revenue_cents": 6000, "refunded_cents": 6000},
             {"currency": "USD", "net_cents": 10800, "revenue_cents": 10800, "refunded_cents": 0}]'::jsonb) $$,
  'the dashboard: revenue, refunds and net per currency today');
select results_eq(
  $$ select (p ->> 'sales')::int, (p ->> 'refunds')::int from jsonb_array_elements(public.staff_dashboard() -> 'periods') p order by (p ->> 'days')::int $$,
  $$ values (3, 1), (3, 1), (3, 1) $$, 'the dashboard: sales and refunds for today, 7 and 30 days');
select is(jsonb_array_length(public.staff_dashboard() -> 'chart'), 90, 'the dashboard: 90 days of sales by tier');
reset role;

select * from finish();
rollback;
