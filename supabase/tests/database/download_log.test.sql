-- pgTAP, actor by actor: the download log, the download function's authorisation, and what
-- members may still do with the resources bucket (list, never download or sign). Members read
-- their own downloads, staff all; only the download function (service_role) writes. Needs the
-- seed (ebook 1, foundation 2, notier 5, staff 6). One transaction, rolled back.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

select plan(31);

insert into storage.objects (bucket_id, name, owner, metadata, version) values
  ('resources', 'ebook/sample/ebook-guide.pdf', null, '{"mimetype": "application/pdf", "size": 10}', 'v1'),
  ('resources', 'complete/sample/complete-guide.pdf', null, '{"mimetype": "application/pdf", "size": 10}', 'v1');

-- The download function (service_role) ---------------------------------------------------------
set local role service_role;
select is(public.authorize_download('00000000-0000-4000-8000-000000000001', 'ebook/sample/ebook-guide.pdf') ->> 'status', 'ok', 'service_role: ebook member may have an ebook file');
select is(public.authorize_download('00000000-0000-4000-8000-000000000001', 'ebook/sample/ebook-guide.pdf') ->> 'version', 'v1', 'service_role: the file version is the object''s');
select is(public.authorize_download('00000000-0000-4000-8000-000000000001', 'complete/sample/complete-guide.pdf') ->> 'status', 'forbidden', 'service_role: a file above the member''s tier is forbidden');
select is(public.authorize_download('00000000-0000-4000-8000-000000000001', 'ebook/sample/missing.pdf') ->> 'status', 'not_found', 'service_role: an unknown file is not found');
select is(public.authorize_download('00000000-0000-4000-8000-000000000001', 'ebook/sample/../../complete/sample/complete-guide.pdf') ->> 'status', 'not_found', 'service_role: dot segments are not found');
select is(public.authorize_download('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000001/avatar.png') ->> 'status', 'not_found', 'service_role: a path outside the tier folders is not found');
select is(public.authorize_download('00000000-0000-4000-8000-000000000005', 'ebook/sample/ebook-guide.pdf') ->> 'status', 'forbidden', 'service_role: a member without a tier is forbidden');
select is(public.authorize_download('00000000-0000-4000-8000-000000000006', 'complete/sample/complete-guide.pdf') ->> 'status', 'ok', 'service_role: staff may have any file');
select lives_ok($$ insert into public.download_log (user_id, object_id, file_name, file_version, ip, user_agent)
  select '00000000-0000-4000-8000-000000000001', id, name, version, '203.0.113.1', 'pgTAP' from storage.objects where name = 'ebook/sample/ebook-guide.pdf' $$,
  'service_role: logs a download');
select lives_ok($$ insert into public.download_log (user_id, object_id, file_name, file_version, ip, user_agent)
  select '00000000-0000-4000-8000-000000000002', id, name, version, '203.0.113.2', 'pgTAP' from storage.objects where name = 'ebook/sample/ebook-guide.pdf' $$,
  'service_role: logs another member''s download');
select throws_ok($$ update public.download_log set ip = null $$, '42501', 'permission denied for table download_log', 'service_role: cannot rewrite the log');
select throws_ok($$ delete from public.download_log $$, '42501', 'permission denied for table download_log', 'service_role: cannot delete from the log');
reset role;

-- Anyone signed out ------------------------------------------------------------------------------
set local role anon;
select set_config('request.jwt.claims', '{"role": "anon"}', true);
select throws_ok('select * from public.download_log', '42501', 'permission denied for table download_log', 'anon: cannot read the log');
select throws_ok($$ select public.authorize_download('00000000-0000-4000-8000-000000000001', 'ebook/sample/ebook-guide.pdf') $$, '42501', null, 'anon: cannot call authorize_download');
reset role;

-- A member (ebook) -------------------------------------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000001", "role": "authenticated"}', true);
select results_eq($$ select file_name, host(ip) from public.download_log $$, $$ values ('ebook/sample/ebook-guide.pdf', '203.0.113.1') $$, 'ebook: reads only their own downloads');
select throws_ok($$ insert into public.download_log (user_id, object_id, file_name) values ('00000000-0000-4000-8000-000000000001', gen_random_uuid(), 'ebook/sample/x.pdf') $$, '42501', 'permission denied for table download_log', 'ebook: cannot write the log');
select throws_ok($$ update public.download_log set ip = null $$, '42501', 'permission denied for table download_log', 'ebook: cannot rewrite the log');
select throws_ok($$ delete from public.download_log $$, '42501', 'permission denied for table download_log', 'ebook: cannot delete from the log');
select throws_ok($$ select public.authorize_download('00000000-0000-4000-8000-000000000001', 'ebook/sample/ebook-guide.pdf') $$, '42501', null, 'ebook: cannot call authorize_download');
select throws_ok('select * from public.staff_download_totals()', '42501', 'only staff can read download totals', 'ebook: no per-file totals');
select throws_ok('select * from public.staff_download_flags(30, 5)', '42501', 'only staff can read download flags', 'ebook: no flags');
select set_config('storage.operation', 'storage.object.list', true);
select results_eq($$ select name from storage.objects where bucket_id = 'resources' $$, $$ values ('ebook/sample/ebook-guide.pdf') $$, 'ebook: lists the files of their tier');
select set_config('storage.operation', 'storage.object.sign', true);
select is_empty($$ select name from storage.objects where bucket_id = 'resources' $$, 'ebook: signs no resource (the download function does)');
select set_config('storage.operation', 'storage.object.get_authenticated', true);
select is_empty($$ select name from storage.objects where bucket_id = 'resources' $$, 'ebook: downloads no resource directly');
select set_config('storage.operation', 'storage.object.sign', true);
select is_empty($$ select name from storage.objects where bucket_id = 'stamped-downloads' $$, 'ebook: reads no stamped copy');
reset role;

-- Staff ------------------------------------------------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);
select results_eq($$ select count(*)::int from public.download_log $$, $$ values (2) $$, 'staff: read every download');
select throws_ok($$ insert into public.download_log (user_id, object_id, file_name) values ('00000000-0000-4000-8000-000000000006', gen_random_uuid(), 'ebook/sample/x.pdf') $$, '42501', 'permission denied for table download_log', 'staff: cannot write the log');
select results_eq($$ select file_name, downloads, members from public.staff_download_totals() $$, $$ values ('ebook/sample/ebook-guide.pdf', 2::bigint, 2::bigint) $$, 'staff: per-file totals');
select results_eq($$ select email, downloads, addresses from public.staff_download_flags(0, 5) $$,
  $$ values ('ebook@example.com', 1::bigint, 1::bigint), ('foundation@example.com', 1::bigint, 1::bigint) $$, 'staff: members past a limit are flagged');
select is_empty($$ select email from public.staff_download_flags(30, 5) $$, 'staff: nobody past the default limits');
select is(public.staff_dashboard() -> 'top_files', '[{"name": "ebook/sample/ebook-guide.pdf", "downloads": 2}]'::jsonb,
  'staff: the dashboard''s top files are the log''s, most downloaded first');
reset role;

select * from finish();
rollback;
