// @ts-check
// The data of `npm run bench:staff`: a programme at scale, made with set-based SQL (a few
// statements per table, generate_series and random()) so 50,000 members and 100,000 purchases
// take seconds. Runs as `postgres` with session_replication_role = replica, which skips the
// row triggers (the tier recompute, the invitation queue, the profile row, the audit): their
// results are written set-based here instead, as the triggers would have left them.
//
// Member n has the id 00000000-0000-4000-9000-<n, 12 digits> and an address made of a first
// name, a last name, n and a domain, so a search for a first name matches about 1 in 24.

export const FIRST_NAMES = [
  'anna',
  'ben',
  'carla',
  'david',
  'elena',
  'femi',
  'grace',
  'hugo',
  'ines',
  'jonas',
  'kemi',
  'liam',
  'maria',
  'noah',
  'olga',
  'pedro',
  'quinn',
  'rosa',
  'sam',
  'tariq',
  'uma',
  'victor',
  'wen',
  'yusuf',
];
const LAST_NAMES = [
  'adams',
  'baker',
  'cohen',
  'diaz',
  'evans',
  'fischer',
  'garcia',
  'hughes',
  'ito',
  'jones',
  'khan',
  'lopez',
  'martin',
  'nguyen',
  'okafor',
  'patel',
  'quist',
  'rossi',
  'silva',
  'taylor',
  'usman',
  'vogel',
  'walsh',
  'young',
];
const DOMAINS = ['example.com', 'example.org', 'example.net', 'mail.example', 'post.example', 'writers.example'];

/** The staff account of supabase/seed.sql, whose claims the bench uses. */
export const STAFF_ID = '00000000-0000-4000-8000-000000000006';

/** @param {string[]} list */
const sqlArray = (list) => `(array[${list.map((s) => `'${s}'`).join(', ')}])`;

/** SQL for member n's id. */
const memberId = (/** @type {string} */ n) => `('00000000-0000-4000-9000-' || lpad((${n})::text, 12, '0'))::uuid`;

/**
 * Members [from, to): accounts (85 % signed in since joining, joined over 200 days), their
 * profiles, and their purchases: two per member on average, at random among the stage's members,
 * 1 in 25 by a buyer with no account yet. Tiers 50/30/15/5 %, currencies USD 80 %, EUR, GBP, CAD,
 * paid over 120 days, 4 % refunded within two weeks.
 * @param {number} from @param {number} to
 */
export function membersSql(from, to) {
  const email = `${sqlArray(FIRST_NAMES)}[1 + n % 24] || '.' || ${sqlArray(LAST_NAMES)}[1 + (n / 24) % 24] || n || '@' || ${sqlArray(DOMAINS)}[1 + (n / 576) % 6]`;
  return `
    select setseed(${(from % 1000) / 1000});
    insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
      raw_app_meta_data, raw_user_meta_data, created_at, updated_at, last_sign_in_at,
      confirmation_token, recovery_token, email_change_token_new, email_change, email_change_token_current,
      phone_change, phone_change_token, reauthentication_token)
    select '00000000-0000-0000-0000-000000000000', ${memberId('n')}, 'authenticated', 'authenticated', ${email}, '',
      joined, '{"provider": "email", "providers": ["email"]}', '{}', joined, joined,
      case when random() < 0.85 then joined + random() * (now() - joined) end, '', '', '', '', '', '', '', ''
    from (select n, now() - random() * interval '200 days' as joined from generate_series(${from}, ${to - 1}) n) m;
    insert into public.profiles (id, user_id) select ${memberId('n')}, ${memberId('n')} from generate_series(${from}, ${to - 1}) n;
    insert into public.purchases (provider, provider_event_id, order_id, email, product, tier, amount_cents, currency,
      status, user_id, created_at, updated_at, refunded_at)
    select case when j % 3 = 0 then 'stripe' else 'shopify' end, 'evt_bench_' || j, 'bench-' || j,
      coalesce(u.email, 'buyer' || j || '@example.net'), t.tier::text, t.tier,
      case t.tier when 'ebook' then 2495 when 'foundation' then 4900 when 'accelerated' then 49900 else 149500 end,
      case when r.cur < 0.8 then 'USD' when r.cur < 0.9 then 'EUR' when r.cur < 0.97 then 'GBP' else 'CAD' end,
      case when r.refunded < now() then 'refunded' else 'paid' end, u.id, r.paid, r.paid,
      case when r.refunded < now() then r.refunded end
    from (
      select j, ${from} + floor(random() * ${to - from})::int as m, random() as tr, random() as cur,
        paid, case when random() < 0.04 then paid + random() * interval '14 days' end as refunded
      from generate_series(${2 * from}, ${2 * to - 1}) j,
        lateral (select now() - random() * interval '120 days' - j * interval '0' as paid) d
    ) r
    cross join lateral (select case when r.tr < 0.5 then 'ebook' when r.tr < 0.8 then 'foundation'
      when r.tr < 0.95 then 'accelerated' else 'complete' end::public.tier as tier) t
    left join auth.users u on j % 25 <> 0 and u.id = ${memberId('r.m')};
    insert into public.tier_grants (user_id, tier, reason, granted_by)
    select ${memberId('n')}, 'complete', 'Scholarship (bench)', '${STAFF_ID}'
    from generate_series(${from}, ${to - 1}) n where n % 100 = 7;
    ${tiersSql}`;
}

/** Each user's tier as the recompute trigger leaves it: the highest paid purchase or active grant. */
const tiersSql = `
  insert into public.user_tiers (user_id, tier)
  select user_id, max(tier) from (
    select user_id, tier from public.purchases where status = 'paid' and user_id is not null
    union all select user_id, tier from public.tier_grants where revoked_at is null
  ) s group by user_id
  on conflict (user_id) do update set tier = excluded.tier;`;

/**
 * What the full programme has besides members: an invitation per buyer (accepted for half the
 * members; for buyers without an account pending, failed or sent), 200,000 downloads of 40 files
 * over 90 days (plus 20 members past the sharing limits today), 500 unmatched sales (60 open).
 * @param {number} members
 */
export function extrasSql(members) {
  return `
    select setseed(0.5);
    insert into public.buyer_invitations (email, status, last_error, sent_at, created_at, updated_at)
    select email, 'accepted', null, created_at, created_at, created_at from auth.users
    where id::text like '00000000-0000-4000-9000-%' and right(id::text, 1) in ('0', '2', '4', '6', '8');
    insert into public.buyer_invitations (email, status, last_error, sent_at, created_at, updated_at)
    select email, s.status, case when s.status <> 'sent' then 'over_email_send_rate_limit' end,
      case when s.status = 'sent' then created_at + interval '1 minute' end, created_at, created_at
    from (select email, min(created_at) as created_at, random() as r from public.purchases
          where user_id is null group by email) b
    cross join lateral (select case when b.r < 0.1 then 'pending' when b.r < 0.15 then 'failed' else 'sent' end as status) s;
    insert into public.download_log (user_id, object_id, file_name, file_version, downloaded_at, ip, user_agent)
    select ${memberId(`floor(random() * ${members})::int`)}, md5(f.name)::uuid, f.name, '1',
      now() - random() * interval '90 days', ('10.' || (k % 200) || '.' || (k % 7) || '.' || (k % 250))::inet,
      'Mozilla/5.0 (bench)'
    from generate_series(1, 200000) k
    cross join lateral (select (array['ebook', 'foundation', 'accelerated', 'complete'])[1 + k % 4] || '/module-'
      || (k % 10) || '/lesson-' || (k % 10) || '.pdf' as name) f;
    insert into public.download_log (user_id, object_id, file_name, file_version, downloaded_at, ip, user_agent)
    select ${memberId('k % 20')}, md5('shared')::uuid, 'complete/module-1/lesson-1.pdf', '1',
      now() - random() * interval '20 hours', ('192.0.2.' || (k % 9))::inet, 'Mozilla/5.0 (bench)'
    from generate_series(1, 800) k;
    insert into public.unmatched_sales (provider, event_id, order_id, email, amount_cents, currency, line_ids,
      occurred_at, received_at, resolved_at)
    select 'stripe', 'evt_unmatched_' || k, 'unmatched-' || k, 'stranger' || k || '@example.net', 4900, 'USD',
      jsonb_build_array(jsonb_build_object('stripe_price', 'price_new_' || (k % 5))), t, t,
      case when k > 60 then t + interval '1 day' end
    from generate_series(1, 500) k cross join lateral (select now() - random() * interval '90 days' - k * interval '0' as t) x;`;
}

/** Page views a month the visit counts are made for (about 33,000 a day) unless told otherwise. */
export const VIEWS_PER_MONTH = 1_000_000;

/** The owner's today, in SQL. */
const ownerToday = `(now() at time zone (select time_zone from public.owner_settings))::date`;

/**
 * The raw visit counts of the last 31 owner's days (30 ended days and the whole of today), as
 * count_visits writes them: at 1 million page views a month, 36,000 counts a day (about 33,000
 * page views, plus checkout clicks, plays and returns) from 12,000 visitors a day; in proportion
 * for `viewsPerMonth`. A visitor keeps one attribution all day: 30 % one of 40 campaigns (8
 * sources, 4 mediums), 30 % one of 40 referring sites, the rest direct; 60 % phones, 10 %
 * tablets, 30 % desktops. Then each visitor-day as count_visits keeps it in visit_visitors.
 */
export function visitEventsSql(viewsPerMonth = VIEWS_PER_MONTH) {
  const eventsPerDay = Math.max(1, Math.round((36_000 * viewsPerMonth) / VIEWS_PER_MONTH));
  const visitorsPerDay = Math.max(1, Math.round((12_000 * viewsPerMonth) / VIEWS_PER_MONTH));
  const sources = sqlArray([
    'podcast',
    'newsletter',
    'youtube',
    'instagram',
    'facebook',
    'google',
    'partner',
    'twitter',
  ]);
  const mediums = sqlArray(['audio', 'email', 'social', 'cpc']);
  return `
    insert into private.visit_events (at, day, kind, page, visitor, source, medium, campaign, referrer, device, bundle)
    select d.midnight + (k::float / ${eventsPerDay}) * interval '1 day', d.day, e.kind, e.page,
      sha256(convert_to('bench:' || d.day || ':' || v.id, 'UTF8')),
      case when v.id % 100 < 30 then ${sources}[1 + (v.id / 100) % 8] end,
      case when v.id % 100 < 30 then ${mediums}[1 + (v.id / 100) % 4] end,
      case when v.id % 100 < 30 then 'campaign-' || (v.id / 100) % 40 end,
      case when v.id % 100 between 30 and 59 then 'site-' || (v.id / 100) % 40 || '.example' end,
      case when (v.id / 3) % 10 < 6 then 'phone' when (v.id / 3) % 10 < 7 then 'tablet' else 'desktop' end,
      case when e.kind = 'checkout' then (enum_range(null::public.tier))[1 + k % 4] end
    from (select ${ownerToday} - g as day, (${ownerToday} - g)::timestamp at time zone (select time_zone from public.owner_settings)
            as midnight
          from generate_series(0, 30) g) d
    cross join generate_series(1, ${eventsPerDay}) k
    cross join lateral (select (k * 7919) % ${visitorsPerDay} as id, (k * 31) % 100 as r) v
    cross join lateral (select case when v.r < 55 then 'view' when v.r < 92 then 'view' when v.r < 95 then 'checkout'
                                    when v.r < 99 then 'play' else 'return' end as kind,
                               case when v.r < 55 then '/' when v.r < 80 then '/bundles' when v.r < 85 then '/upgrade'
                                    when v.r < 88 then '/privacy' when v.r < 92 then '/auth' when v.r < 95 then '/bundles'
                                    when v.r < 99 then '/' else '/upgrade' end as page) e;
    insert into private.visit_visitors (day, visitor, source, medium, campaign, referrer, device, saw_bundles)
    select distinct on (e.day, e.visitor) e.day, e.visitor, e.source, e.medium, e.campaign, e.referrer, e.device,
      bool_or(e.kind = 'view' and e.page = '/bundles') over (partition by e.day, e.visitor)
    from private.visit_events e
    order by e.day, e.visitor, (e.source is not null or e.campaign is not null) desc, (e.referrer is not null) desc, e.id desc;`;
}

/**
 * A year of rolled-up days: the roll-up of the 30 ended days (made by private.roll_up_visits
 * from the raw counts above) copied 11 times further back, so 330 more days hold the same
 * shape of counts. Their raw counts are gone, as the roll-up leaves them after 30 days.
 */
export const olderVisitDaysSql = `
  insert into private.visit_days (day, kind, page, source, medium, campaign, referrer, device, bundle, events, visitors)
  select d.day - 30 * m, d.kind, d.page, d.source, d.medium, d.campaign, d.referrer, d.device, d.bundle, d.events, d.visitors
  from private.visit_days d cross join generate_series(1, 11) m;
  insert into private.visit_day_visitors (day, source, medium, campaign, referrer, device, visitors, bundle_viewers)
  select d.day - 30 * m, d.source, d.medium, d.campaign, d.referrer, d.device, d.visitors, d.bundle_viewers
  from private.visit_day_visitors d cross join generate_series(1, 11) m;`;

/** The campaign of 3 sales in 10 (one of the 40 campaigns, or a referring site alone), as the webhook records it. */
export const purchaseCampaignsSql = `
  insert into public.purchase_campaigns (purchase_id, source, medium, campaign, referrer, created_at)
  select p.id, case when k % 3 > 0 then 'podcast' end, case when k % 3 > 0 then 'audio' end,
    case when k % 3 > 0 then 'campaign-' || k % 40 end, case when k % 3 = 0 then 'site-' || k % 40 || '.example' end,
    p.created_at
  from (select p.id, p.created_at, row_number() over (order by p.id) as k from public.purchases p) p
  where p.k % 10 < 3;`;
