-- pgTAP, actor by actor: the members CSV export's keyset pages (staff_export_members) as anon, a
-- member (ebook@example.com), the webhook (service_role) and staff (staff@example.com): refused
-- with the error the client would see, or the page after the cursor, in the members page's
-- order. Needs the seed. One transaction, rolled back.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

select plan(20);

-- Fixtures, as postgres: two addresses equal but for case (the order falls back on the id), two
-- members without an e-mail (phone sign-ins), and a purchase by the ebook member.
insert into auth.users (instance_id, id, aud, role, email, phone, created_at)
values
  ('00000000-0000-0000-0000-000000000000', '00000000-0000-4000-8000-00000000b001', 'authenticated', 'authenticated', 'Bea@Example.com', null, now()),
  ('00000000-0000-0000-0000-000000000000', '00000000-0000-4000-8000-00000000b002', 'authenticated', 'authenticated', 'bea@example.com', null, now()),
  ('00000000-0000-0000-0000-000000000000', '00000000-0000-4000-8000-00000000a001', 'authenticated', 'authenticated', null, '15550001', now()),
  ('00000000-0000-0000-0000-000000000000', '00000000-0000-4000-8000-00000000a002', 'authenticated', 'authenticated', null, '15550002', now());
select public.record_purchase('stripe', 'evt_pgtap_x1', 'ord_pgtap_x1', 'ebook@example.com', 'ebook', 'ebook', 1999, 'EUR', now());

-- ---------------------------------------------------------------------------------------------
-- anon, a member, the webhook: refused.
set local role anon;
select set_config('request.jwt.claims', '{"role": "anon"}', true);
select throws_ok($$ select * from public.staff_export_members() $$, '42501',
  'permission denied for function staff_export_members', 'anon: staff_export_members refused');
reset role;

set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000001", "role": "authenticated"}', true);
select throws_ok($$ select * from public.staff_export_members() $$, '42501', 'only staff can list members',
  'a member: staff_export_members refused');
reset role;

set local role service_role;
select set_config('request.jwt.claims', '{"role": "service_role"}', true);
select throws_ok($$ select * from public.staff_export_members() $$, '42501',
  'permission denied for function staff_export_members', 'service_role: staff_export_members refused');
reset role;

-- ---------------------------------------------------------------------------------------------
-- Staff: pages after the cursor.
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);

select results_eq(
  $$ select email, email_key, tier::text, tier_source, purchase_count from public.staff_export_members('', null, null, 3) $$,
  $$ values ('accelerated@example.com', 'accelerated@example.com', 'accelerated', 'staff', 0),
            ('Bea@Example.com', 'bea@example.com', null, null, 0),
            ('bea@example.com', 'bea@example.com', null, null, 0) $$,
  'the first page: by lower(email) then id, with tier, its source, purchase count and the sort key');
select results_eq(
  $$ select user_id from public.staff_export_members('', 'bea@example.com', '00000000-0000-4000-8000-00000000b001', 1) $$,
  $$ values ('00000000-0000-4000-8000-00000000b002'::uuid) $$,
  'after one of two equal keys comes the other, by id');
select results_eq(
  $$ select email, tier::text, tier_source, purchase_count
     from public.staff_export_members('', 'bea@example.com', '00000000-0000-4000-8000-00000000b002', 3) $$,
  $$ values ('complete@example.com', 'complete', 'staff', 0), ('ebook@example.com', 'ebook', 'purchase', 1),
            ('foundation@example.com', 'foundation', 'staff', 0) $$,
  'the next page starts after the cursor');
select results_eq(
  $$ select user_id, email, email_key from public.staff_export_members('', 'notier@example.com', '00000000-0000-4000-8000-000000000005', 3) $$,
  $$ values ('00000000-0000-4000-8000-000000000006'::uuid, 'staff@example.com', 'staff@example.com'),
            ('00000000-0000-4000-8000-00000000a001'::uuid, null, null),
            ('00000000-0000-4000-8000-00000000a002'::uuid, null, null) $$,
  'members without an e-mail come last, by id, in the same page');
select results_eq(
  $$ select user_id from public.staff_export_members('', null, '00000000-0000-4000-8000-00000000a001', 3) $$,
  $$ values ('00000000-0000-4000-8000-00000000a002'::uuid) $$,
  'a cursor among the members without an e-mail: after its id');
select is_empty(
  $$ select * from public.staff_export_members('', null, '00000000-0000-4000-8000-00000000a002', 3) $$,
  'after the last member: an empty page');
select results_eq(
  $$ select array_agg(user_id order by n) from (
       select user_id, row_number() over () as n from public.staff_export_members('', null, null, 1000)) e $$,
  $$ select array_agg(user_id order by n) from (
       select user_id, row_number() over () as n from public.staff_list_members('', 1000, 0)) l $$,
  'the export''s order is the members page''s');

-- A search: case-insensitive, pages by keyset too; it matches no member without an e-mail.
select results_eq(
  $$ select email from public.staff_export_members('BEA', null, null, 1) $$,
  $$ values ('Bea@Example.com') $$, 'searches e-mails case-insensitively');
select results_eq(
  $$ select email from public.staff_export_members('bea', 'bea@example.com', '00000000-0000-4000-8000-00000000b001', 5) $$,
  $$ values ('bea@example.com') $$, 'a search''s next page holds only its matches');
select results_eq(
  $$ select email from public.staff_export_members('staff', null, null, 5) $$,
  $$ values ('staff@example.com') $$, 'a search matches no member without an e-mail');

-- Bad pages.
select throws_ok($$ select * from public.staff_export_members('', null, null, 0) $$, '22023',
  'page_size must be between 1 and 1000', 'refuses a page size of 0');
select throws_ok($$ select * from public.staff_export_members('', null, null, 1001) $$, '22023',
  'page_size must be between 1 and 1000', 'refuses a page size over 1000');
select throws_ok($$ select * from public.staff_export_members('', 'a@example.com', null, 10) $$, '22023',
  'after_email needs after_id', 'refuses a cursor with an e-mail and no id');

-- Rows GoTrue did not write (another instance id, or none) are members too, merged into the order.
reset role;
insert into auth.users (instance_id, id, aud, role, email, created_at)
values
  ('11111111-1111-1111-1111-111111111111', '00000000-0000-4000-8000-00000000c001', 'authenticated', 'authenticated', 'dan@example.com', now()),
  (null, '00000000-0000-4000-8000-00000000c002', 'authenticated', 'authenticated', 'eve@example.com', now());
set local role authenticated;
select results_eq(
  $$ select email from public.staff_export_members('', 'complete@example.com', '00000000-0000-4000-8000-000000000004', 3) $$,
  $$ values ('dan@example.com'), ('ebook@example.com'), ('eve@example.com') $$,
  'the export merges rows of another or no instance id into the order');
select results_eq(
  $$ select email, total_count from public.staff_list_members('', 3, 4) $$,
  $$ values ('dan@example.com', 12::bigint), ('ebook@example.com', 12::bigint), ('eve@example.com', 12::bigint) $$,
  'the members page too, and counts them');
select is_empty($$ select * from public.staff_list_members('', 25, 2147483647) $$,
  'the members page: an offset past every member is an empty page');
select results_eq(
  $$ select array_agg(user_id order by n) from (
       select user_id, row_number() over () as n from public.staff_export_members('', null, null, 1000)) e $$,
  $$ select array_agg(user_id order by n) from (
       select user_id, row_number() over () as n from public.staff_list_members('', 1000, 0)) l $$,
  'the export''s order is still the members page''s');

select * from finish();
rollback;
