-- pgTAP, actor by actor: visits counted with no cookies. Only the count function (service_role)
-- counts (count_visits: a batch applied in order; a bad element refuses the whole batch) and only the purchase webhook (service_role) records a sale's campaign; nobody reads
-- the raw counts; staff read the figures (staff_visits), a member cannot. Then: the attribution
-- a visitor carries through the day, nothing raw stored, the figures against a hand count
-- (before and after the roll-up, which must agree), the roll-up's 30-day drop and salt
-- deletion, and the per-address cap across batches. Needs the seed (ebook 1, staff 6). One transaction, rolled back.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

select plan(60);

-- The owner's today (T), and what ended days left: raw counts as count_visits wrote them.
create temporary table t as select (now() at time zone (select time_zone from public.owner_settings))::date as today;
grant select on t to public;
insert into private.visit_salts (day, salt) select today - 1, sha256('old salt'::bytea) from t;
insert into private.visit_events (day, kind, page, visitor, source, medium, campaign, referrer, device, bundle)
select t.today - v.ago, v.kind, v.page, sha256(v.who::bytea), v.source, null, v.campaign, v.referrer, 'phone', v.bundle::public.tier
from t, (values
  -- T-2: A from the podcast (three counts), B from youtube.com, C direct who played the video.
  (2, 'view', '/', 'A', 'podcast', 'launch', null, null),
  (2, 'view', '/bundles', 'A', 'podcast', 'launch', null, null),
  (2, 'checkout', '/bundles', 'A', 'podcast', 'launch', null, 'ebook'),
  (2, 'view', '/', 'B', null, null, 'youtube.com', null),
  (2, 'view', '/bundles', 'B', null, null, 'youtube.com', null),
  (2, 'view', '/', 'C', null, null, null, null),
  (2, 'play', '/', 'C', null, null, null, null),
  -- T-1: someone direct. T-40: someone direct (outside 30 days of raw counts, inside the chart).
  (1, 'view', '/', 'D', null, null, null, null),
  (40, 'view', '/', 'E', null, null, null, null)
) v (ago, kind, page, who, source, campaign, referrer, bundle);
-- and each visitor-day as count_visits keeps it: latest attributed, else latest with a referrer.
insert into private.visit_visitors (day, visitor, source, medium, campaign, referrer, device, saw_bundles)
select distinct on (e.day, e.visitor) e.day, e.visitor, e.source, e.medium, e.campaign, e.referrer, e.device,
  bool_or(e.kind = 'view' and e.page = '/bundles') over (partition by e.day, e.visitor)
from private.visit_events e
order by e.day, e.visitor, (e.source is not null or e.campaign is not null) desc, (e.referrer is not null) desc, e.id desc;

-- Sales: today from the podcast (USD), T-3 with no campaign (EUR), T-10 (outside 7 days).
insert into public.purchases (provider, provider_event_id, order_id, email, product, tier, amount_cents, currency, created_at)
select 'stripe', 'evt_visit_' || s.n, 'order-' || s.n, 'buyer' || s.n || '@example.net', 'x', 'ebook', s.cents, s.currency,
  ((t.today - s.ago)::timestamp at time zone (select time_zone from public.owner_settings)) + interval '1 minute'
from t, (values (1, 0, 4900, 'USD'), (2, 3, 2495, 'EUR'), (3, 10, 9900, 'USD')) s (n, ago, cents, currency);

-- The count function (service_role) -------------------------------------------------------------
-- One count as the count function sends it, with these fields changed.
create temporary table c as select '{"kind": "view", "page": "/", "source": null, "medium": null, "campaign": null,
  "referrer": null, "bundle": null, "device": "phone", "address": "10.0.0.1", "user_agent": "UA one",
  "site": "site.example"}'::jsonb as base;
grant select on c to public;
set local role service_role;
select is(public.count_visits((select jsonb_build_array(
    base || '{"source": " Podcast ", "campaign": "LAUNCH", "referrer": "news.example"}',
    base || '{"page": "/bundles"}',
    base || '{"kind": "checkout", "page": "/bundles", "referrer": "other.example", "bundle": "foundation"}',
    base || '{"medium": "email", "referrer": "news.example", "device": "desktop", "address": "10.0.0.2", "user_agent": "UA two"}',
    base || '{"page": "/bundles", "user_agent": "UA other"}') from c)),
  '{"counted": 5, "dropped": 0}'::jsonb, 'service_role: counts a batch');
select throws_ok($$ select public.count_visits((select jsonb_build_array(base || '{"kind": "visit"}') from c)) $$,
  '22023', 'count 1 has an unknown kind', 'service_role: an unknown kind is refused');
select throws_ok($$ select public.count_visits((select jsonb_build_array(base, base || '{"page": "/staff"}') from c)) $$,
  '22023', 'count 2 has an unknown page', 'service_role: an unknown page is refused, and the batch''s good count with it');
select throws_ok($$ select public.count_visits((select jsonb_build_array(base || '{"device": "watch"}') from c)) $$,
  '22023', 'count 1 has an unknown device', 'service_role: an unknown device is refused');
select throws_ok($$ select public.count_visits((select jsonb_build_array(base || '{"bundle": "ebook"}') from c)) $$,
  '22023', 'count 1 has a bundle but is not a checkout', 'service_role: a bundle on a view is refused');
select throws_ok($$ select public.count_visits((select jsonb_build_array(base || '{"kind": "checkout", "bundle": "gold"}') from c)) $$,
  '22023', 'count 1 has an unknown bundle', 'service_role: an unknown bundle is refused');
select throws_ok($$ select public.count_visits((select jsonb_build_array(base || jsonb_build_object('source', repeat('x', 101))) from c)) $$,
  '22023', 'count 1 has a source longer than 100 characters', 'service_role: a source over 100 characters is refused');
select throws_ok($$ select public.count_visits((select jsonb_build_array(base || '{"ip": "10.0.0.1"}') from c)) $$,
  '22023', 'count 1 has an unknown key', 'service_role: an unknown key is refused');
select throws_ok($$ select public.count_visits((select jsonb_build_array(base || '{"page": 1}') from c)) $$,
  '22023', 'count 1 has a value that is not a string', 'service_role: a value of another type is refused');
select throws_ok($$ select public.count_visits('[1]') $$, '22023', 'count 1 is not an object',
  'service_role: an element that is not an object is refused');
select throws_ok($$ select public.count_visits((select base from c)) $$, '22023', 'p_counts must be a JSON array',
  'service_role: a batch that is not an array is refused');
select throws_ok($$ select public.count_visits((select jsonb_agg(base) from c, generate_series(1, 501))) $$,
  '22023', 'at most 500 counts a call, not 501', 'service_role: more than 500 counts are refused');
select is(public.count_visits('[]'), '{"counted": 0, "dropped": 0}'::jsonb, 'service_role: an empty batch counts nothing');
select is(public.record_purchase_campaign('stripe', 'order-1', 'Podcast', null, 'launch', null), true,
  'service_role: records the campaign of a sale');
select is(public.record_purchase_campaign('stripe', 'order-1', 'podcast', null, 'launch', null), true,
  'service_role: and again (one row)');
select is(public.record_purchase_campaign('stripe', 'no-such-order', 'podcast', null, 'launch', null), false,
  'service_role: false for an order that is not a purchase');
select throws_ok('select * from private.visit_events', '42501', 'permission denied for table visit_events',
  'service_role: cannot read the raw counts');
select throws_ok($$ select public.staff_visits(7) $$, '42501', null, 'service_role: no staff figures');
select throws_ok($$ select private.roll_up_visits() $$, '42501', null, 'service_role: cannot run the roll-up');
reset role;
select results_eq($$ select kind, page, source, medium, campaign, referrer, device, bundle::text from private.visit_events
  where day = (select today from t) order by id $$,
  $$ values ('view', '/', 'podcast', null, 'launch', 'news.example', 'phone', null),
            ('view', '/bundles', 'podcast', null, 'launch', 'news.example', 'phone', null),
            ('checkout', '/bundles', 'podcast', null, 'launch', 'news.example', 'phone', 'foundation'),
            ('view', '/', null, null, null, 'news.example', 'desktop', null),
            ('view', '/bundles', null, null, null, null, 'phone', null) $$,
  'the batch is applied in order: codes cleaned, the campaign carried to the visitor''s next counts (even a checkout with a referrer of its own), a medium alone is no campaign, another user agent is another visitor; the refused batches wrote nothing');
select results_eq($$ select source, medium, campaign, referrer from public.purchase_campaigns $$,
  $$ values ('podcast'::text, null::text, 'launch'::text, null::text) $$, 'the sale''s campaign is one row');
select results_eq($$ select day from private.visit_salts $$, $$ select today from t $$,
  'the first count of the day made its salt and deleted yesterday''s');

-- Anyone signed out ------------------------------------------------------------------------------
set local role anon;
select set_config('request.jwt.claims', '{"role": "anon"}', true);
select throws_ok($$ select public.count_visits('[]') $$, '42501', null, 'anon: cannot count');
select throws_ok($$ select public.record_purchase_campaign('stripe', 'order-1', 'x', null, null, null) $$,
  '42501', null, 'anon: cannot record a campaign');
select throws_ok('select * from public.purchase_campaigns', '42501', 'permission denied for table purchase_campaigns',
  'anon: cannot read the campaigns');
select throws_ok('select * from private.visit_events', '42501', 'permission denied for table visit_events',
  'anon: cannot read the raw counts');
select throws_ok($$ select public.staff_visits(7) $$, '42501', null, 'anon: no figures');
reset role;

-- A member (ebook) -------------------------------------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000001", "role": "authenticated"}', true);
select throws_ok($$ select public.count_visits('[]') $$, '42501', null, 'ebook: cannot count');
select throws_ok($$ select public.record_purchase_campaign('stripe', 'order-1', 'x', null, null, null) $$,
  '42501', null, 'ebook: cannot record a campaign');
select is_empty('select * from public.purchase_campaigns', 'ebook: reads no campaign');
select throws_ok($$ insert into public.purchase_campaigns (purchase_id) select id from public.purchases limit 1 $$,
  '42501', 'permission denied for table purchase_campaigns', 'ebook: cannot write a campaign');
select throws_ok('select * from private.visit_day_visitors', '42501', 'permission denied for table visit_day_visitors',
  'ebook: cannot read the roll-up');
select throws_ok($$ select public.staff_visits(7) $$, '42501', 'only staff can read the visits', 'ebook: no figures');
reset role;

-- Nothing raw is stored --------------------------------------------------------------------------
select is_empty($$ select e.id from private.visit_events e
  where e::text like '%10.0.0.1%' or e::text ilike '%UA one%' or e::text like '%site.example%' $$,
  'no raw count holds the address, user agent or site');
select is_empty($$ select l.address from private.visit_limits l where l::text like '%10.0.0.1%' $$,
  'the rate limits hold no address');
select is_empty($$ select table_name, column_name from information_schema.columns
  where table_schema = 'private' and table_name like 'visit%'
    and (column_name ~ 'address|agent|ip|site') and data_type <> 'bytea' $$,
  'no visit column is made to hold an address or user agent (the limits'' address is a hash)');

-- Staff: the figures against a hand count ------------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);
create temporary table expected_7 on commit drop as select '{
  "days": 7, "time_zone": "America/New_York", "plays": 1, "returns": 0,
  "funnel": {"visitors": 7, "bundles": 4, "checkouts": 2, "sales": 2},
  "by_campaign": [
    {"source": null, "medium": null, "campaign": null, "visitors": 5, "checkouts": 0, "sales": 1,
     "revenue": [{"currency": "EUR", "cents": 2495}]},
    {"source": "podcast", "medium": null, "campaign": "launch", "visitors": 2, "checkouts": 2, "sales": 1,
     "revenue": [{"currency": "USD", "cents": 4900}]}],
  "by_referrer": [
    {"referrer": null, "visitors": 4, "checkouts": 1, "sales": 2,
     "revenue": [{"currency": "EUR", "cents": 2495}, {"currency": "USD", "cents": 4900}]},
    {"referrer": "news.example", "visitors": 2, "checkouts": 1, "sales": 0, "revenue": []},
    {"referrer": "youtube.com", "visitors": 1, "checkouts": 0, "sales": 0, "revenue": []}]
}'::jsonb as figures;
select is(public.staff_visits(7) - 'chart' - 'since' - 'today', (select figures from expected_7),
  'staff: 7 days from raw counts (nothing rolled up yet)');
select is((public.staff_visits(7) ->> 'since')::date, (select today - 6 from t), 'staff: since 6 days before today');
select is((public.staff_visits(1) -> 'funnel'), '{"visitors": 3, "bundles": 2, "checkouts": 1, "sales": 1}'::jsonb,
  'staff: today only');
select results_eq($$ select (c ->> 'day')::date, (c ->> 'visitors')::int from jsonb_array_elements(public.staff_visits(1) -> 'chart') c
  where (c ->> 'visitors')::int > 0 $$,
  $$ select today - 40, 1 from t union all select today - 2, 3 from t union all select today - 1, 1 from t
     union all select today, 3 from t $$, 'staff: the chart has visitors per day over 90 days, whatever the period');
select is(jsonb_array_length(public.staff_visits(30) -> 'chart'), 90, 'staff: the chart has 90 days');
select throws_ok($$ select public.staff_visits(14) $$, '22023', null, 'staff: only 1, 7, 30 or 90 days');
select throws_ok('select * from private.visit_events', '42501', 'permission denied for table visit_events',
  'staff: cannot read the raw counts');
reset role;

-- The roll-up ------------------------------------------------------------------------------------
insert into private.visit_salts (day, salt) select today - 3, sha256('stale salt'::bytea) from t;
select is(private.roll_up_visits() - 'deleted_limits',
  jsonb_build_object('rolled_days', 40, 'through', (select today - 1 from t), 'deleted_events', 1, 'deleted_salts', 1),
  'the roll-up rolls every ended day, drops raw counts over 30 days old and ended days'' salts');
select results_eq($$ select day from private.visit_salts $$, $$ select today from t $$, 'only today''s salt is left');
select is((select count(*)::int from private.visit_events where day < (select today - 30 from t))
          + (select count(*)::int from private.visit_visitors where day < (select today - 30 from t)), 0,
  'no raw count or visitor-day over 30 days old');
select is((select count(*)::int from private.visit_events where day = (select today - 2 from t)), 7,
  'the raw counts of 30 days stay');
select results_eq($$ select kind, page, source, referrer, events::int, visitors::int from private.visit_days
  where day = (select today - 2 from t) order by kind, page, source nulls first, referrer nulls first $$,
  $$ values ('checkout', '/bundles', 'podcast', null, 1, 1), ('play', '/', null, null, 1, 1), ('view', '/', null, null, 1, 1),
            ('view', '/', null, 'youtube.com', 1, 1), ('view', '/', 'podcast', null, 1, 1),
            ('view', '/bundles', null, 'youtube.com', 1, 1), ('view', '/bundles', 'podcast', null, 1, 1) $$,
  'the day''s counts and visitors per group');
select results_eq($$ select source, referrer, visitors::int, bundle_viewers::int from private.visit_day_visitors
  where day = (select today - 2 from t) order by source nulls first, referrer nulls first $$,
  $$ values (null, null, 1, 0), (null, 'youtube.com', 1, 1), ('podcast', null, 1, 1) $$,
  'the day''s visitor-days, each under its attribution');
select is(private.roll_up_visits() -> 'rolled_days', '0'::jsonb, 'run again, it rolls nothing');
select is((select count(*)::int from private.visit_day_visitors), 5, 'and adds no row');
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);
select is(public.staff_visits(7) - 'chart' - 'since' - 'today', (select figures from expected_7),
  'staff: the same 7 days from the roll-up and today''s raw counts');
select is((select sum((c ->> 'visitors')::int)::int from jsonb_array_elements(public.staff_visits(90) -> 'chart') c), 8,
  'staff: the chart still counts the day whose raw counts are gone');
select is(public.staff_visits(90) -> 'funnel', '{"visitors": 8, "bundles": 4, "checkouts": 2, "sales": 3}'::jsonb,
  'staff: 90 days');
reset role;

-- The cap: 120 counts a minute per address, across batches ---------------------------------------
set local role service_role;
select is(public.count_visits((select jsonb_agg(base || jsonb_build_object('page', '/privacy', 'address', '10.0.0.9',
    'user_agent', 'UA ' || g) order by g) from c, generate_series(1, 100) g)),
  '{"counted": 100, "dropped": 0}'::jsonb, 'service_role: 100 counts from one address in a minute are counted');
select is(public.count_visits((select jsonb_agg(base || jsonb_build_object('page', '/privacy',
    'address', case when g = 13 then '10.0.0.10' else '10.0.0.9' end, 'user_agent', 'UA ' || g) order by g)
    from c, generate_series(1, 26) g)),
  '{"counted": 21, "dropped": 5}'::jsonb, 'service_role: in the next batch, the address''s 121st and later are dropped, another address''s count is not');
select is(public.count_visits((select jsonb_build_array(base || '{"page": "/privacy", "address": "10.0.0.9"}') from c)),
  '{"counted": 0, "dropped": 1}'::jsonb, 'service_role: and so is the next batch''s');
-- The visitor of the first batch, back with no campaign: the visitor-day's campaign, kept from before.
select is(public.count_visits((select jsonb_build_array(base || '{"page": "/upgrade", "kind": "return"}') from c)),
  '{"counted": 1, "dropped": 0}'::jsonb, 'service_role: a later batch counts the first visitor again');
reset role;
select is((select count(*)::int from private.visit_events where page = '/privacy'), 121, 'the dropped counts wrote nothing');
select results_eq($$ select source, campaign, referrer from private.visit_events where page = '/upgrade' $$,
  $$ values ('podcast'::text, 'launch'::text, 'news.example'::text) $$,
  'a count in a later batch carries the campaign the visitor-day kept');

select * from finish();
rollback;
