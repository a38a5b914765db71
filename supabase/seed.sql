-- Local development seed: one demo account per tier, one without a tier, one staff member.
-- Every password is `password123`. Runs after the migrations on `supabase db reset` /
-- `supabase start` and in the local stand-in (packages/supabase-stand-in/db.mjs). No storage objects:
-- the stand-in uploads sample files itself.
--
--   ebook@example.com        tier ebook        Eve Ebook
--   foundation@example.com   tier foundation   Fran Foundation
--   accelerated@example.com  tier accelerated  Alex Accelerated
--   complete@example.com     tier complete     Casey Complete
--   notier@example.com       no tier           (no profile name: the menu shows "No name set")
--   staff@example.com        staff + complete  Sam Staff

-- One statement (a DO block), not a temporary table read by later statements: the CLI sends
-- a seed file as a batch of prepared statements, and a statement naming a table that an
-- earlier one in the batch creates fails to prepare ("relation does not exist").
do $seed$
declare
  account record;
begin
  for account in
    select *
    from (values
      ('00000000-0000-4000-8000-000000000001'::uuid, 'ebook@example.com', 'ebook'::public.tier, 'Eve Ebook', false),
      ('00000000-0000-4000-8000-000000000002', 'foundation@example.com', 'foundation', 'Fran Foundation', false),
      ('00000000-0000-4000-8000-000000000003', 'accelerated@example.com', 'accelerated', 'Alex Accelerated', false),
      ('00000000-0000-4000-8000-000000000004', 'complete@example.com', 'complete', 'Casey Complete', false),
      ('00000000-0000-4000-8000-000000000005', 'notier@example.com', null, null, false),
      ('00000000-0000-4000-8000-000000000006', 'staff@example.com', 'complete', 'Sam Staff', true)
    ) as demo (id, email, tier, display_name, is_staff)
  loop
    -- GoTrue scans the token columns into strings, so they must be '' rather than null.
    insert into auth.users (
      instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
      raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
      confirmation_token, recovery_token, email_change_token_new, email_change,
      email_change_token_current, phone_change, phone_change_token, reauthentication_token
    ) values (
      '00000000-0000-0000-0000-000000000000', account.id, 'authenticated', 'authenticated', account.email,
      extensions.crypt('password123', extensions.gen_salt('bf')), now(),
      '{"provider": "email", "providers": ["email"]}'::jsonb, '{}'::jsonb, now(), now(),
      '', '', '', '', '', '', '', ''
    );

    insert into auth.identities (id, user_id, provider_id, provider, identity_data, last_sign_in_at, created_at, updated_at)
    values (
      account.id, account.id, account.id::text, 'email',
      jsonb_build_object('sub', account.id::text, 'email', account.email, 'email_verified', true, 'phone_verified', false),
      now(), now(), now()
    );

    -- The on_auth_user_created trigger made the (empty) profile row; name it.
    if account.display_name is not null then
      update public.profiles set display_name = account.display_name where id = account.id;
    end if;

    if account.tier is not null then
      -- Tiers are derived from purchases and staff grants (baseline migration, sections 7 and 8).
      insert into public.tier_grants (user_id, tier, reason) values (account.id, account.tier, 'Demo account (supabase/seed.sql)');
    end if;

    if account.is_staff then
      insert into public.staff (user_id, note) values (account.id, 'demo staff account');
    end if;
  end loop;
end
$seed$;

-- The spec's catalog (section 9): the ebook and the three bundles as the public pages show them,
-- their checkout links, and placeholder provider ids (REPLACE_ME_…) to be replaced on
-- /staff/catalog with the shop's own. Inserted as SQL (no auth.uid()), so the audit records
-- these first rows with no author.
insert into public.catalog_products
  (tier, name, price_cents, total_value_cents, total_value_is_floor, savings_cents, savings_is_floor, checkout_url, sales_video_url)
values
  ('ebook', 'Yes, You Can! ebook', 2495, 49700, false, null, false,
   'https://shop.yesyoucanbook.com/products/yes-you-can-ebook', 'https://www.youtube-nocookie.com/embed/yes-you-can-sales-video'),
  ('foundation', 'Foundation Builder', 4900, 19700, false, 14800, false,
   'https://checkout.yesyoucanbook.com/b/foundation-builder', null),
  ('accelerated', 'Accelerated Success', 49900, 184700, false, 134800, false,
   'https://checkout.yesyoucanbook.com/b/accelerated-success', null),
  ('complete', 'Complete Transformation', 149500, 450000, true, 300000, true,
   'https://checkout.yesyoucanbook.com/b/complete-transformation', null);

insert into public.catalog_provider_ids (kind, provider_id, tier)
select kind, 'REPLACE_ME_' || kind || '_' || tier, tier::public.tier
from (values ('ebook'), ('foundation'), ('accelerated'), ('complete')) t (tier)
cross join (values ('shopify_product'), ('stripe_price')) k (kind);

-- Coaching: the booking pages of the two bundles that include sessions (a placeholder Cal.com
-- page, to be replaced on /staff/catalog with the owner's own), and one session the demo
-- Accelerated member has booked, as the booking webhook records it, three days from the seed.
update public.coaching_allowances set booking_url = 'https://cal.com/yes-you-can-demo/coaching-90'
where tier in ('accelerated', 'complete');

insert into public.coaching_bookings
  (provider, provider_booking_id, user_id, email, name, starts_at, ends_at, meeting_url, status)
select 'calcom', 'demo-booking-1', u.id, u.email, 'Alex Accelerated',
  date_trunc('hour', now()) + interval '3 days', date_trunc('hour', now()) + interval '3 days 90 minutes',
  'https://cal.com/video/demo-booking-1', 'booked'
from auth.users u where u.email = 'accelerated@example.com';

-- Live sessions and community: placeholder links for the two communities (to be replaced on
-- /staff/sessions with the owner's private groups), one circle two days from the seed and one
-- Q&A call ten days from it. The demo members got their benefits with their tiers.
update public.timed_benefits set link = 'https://community.example.com/yes-you-can-circle' where benefit = 'community';
update public.timed_benefits set link = 'https://community.example.com/yes-you-can-vip' where benefit = 'vip_community';

insert into public.live_sessions (benefit, title, starts_at, minutes, join_url, description)
values
  ('circle', 'Group coaching circle: your first chapter', date_trunc('hour', now()) + interval '2 days', 120,
   'https://meet.example.com/yes-you-can-circle-1', 'Bring the page you are stuck on. We write together for the last half hour.'),
  ('qa', 'Live Q&A: from draft to publisher', date_trunc('hour', now()) + interval '10 days', 60,
   'https://meet.example.com/yes-you-can-qa-1', 'Send your questions ahead by replying to the reminder e-mail.');
