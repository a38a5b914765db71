-- pgTAP, actor by actor: files the download function could not stamp. Only the function
-- (service_role) records them, one row per object version however often members hit it;
-- members read nothing; staff read the table and see, on the dashboard, the versions still
-- in the bucket. Needs the seed (ebook 1, staff 6). One transaction, rolled back.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

select plan(22);

insert into storage.objects (id, bucket_id, name, owner, metadata, version) values
  ('10000000-0000-4000-8000-000000000001', 'resources', 'ebook/sample/locked.pdf', null,
   '{"mimetype": "application/pdf", "size": 10}', 'v1');

-- The download function (service_role) ---------------------------------------------------------
set local role service_role;
select lives_ok($$ select public.record_unstampable_file('10000000-0000-4000-8000-000000000001', 'ebook/sample/locked.pdf', 'v1', 'encrypted') $$,
  'service_role: records a refused download');
select lives_ok($$ select public.record_unstampable_file('10000000-0000-4000-8000-000000000001', 'ebook/sample/locked.pdf', 'v1', 'encrypted') $$,
  'service_role: records it again');
select results_eq($$ select file_name, file_version, reason, refusals, last_seen >= first_seen from public.unstampable_files $$,
  $$ values ('ebook/sample/locked.pdf', 'v1', 'encrypted', 2, true) $$, 'service_role: the same version stays one row, counted twice');
select lives_ok($$ select public.record_unstampable_file('10000000-0000-4000-8000-000000000001', 'ebook/sample/locked.pdf', 'v0', 'damaged') $$,
  'service_role: an earlier version is a row of its own');
select throws_ok($$ select public.record_unstampable_file('10000000-0000-4000-8000-000000000001', 'ebook/sample/locked.pdf', 'v1', 'lost') $$,
  '23514', null, 'service_role: a reason the function does not give is refused');
select throws_ok($$ delete from public.unstampable_files $$, '42501', 'permission denied for table unstampable_files',
  'service_role: cannot delete rows');
reset role;

-- Anyone signed out ------------------------------------------------------------------------------
set local role anon;
select set_config('request.jwt.claims', '{"role": "anon"}', true);
select throws_ok('select * from public.unstampable_files', '42501', 'permission denied for table unstampable_files',
  'anon: cannot read the table');
select throws_ok($$ select public.record_unstampable_file('10000000-0000-4000-8000-000000000001', 'x', 'v9', 'encrypted') $$,
  '42501', null, 'anon: cannot record');
reset role;

-- A member (ebook) -------------------------------------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000001", "role": "authenticated"}', true);
select is_empty('select * from public.unstampable_files', 'ebook: reads no row');
select throws_ok($$ insert into public.unstampable_files (object_id, file_version, file_name, reason)
  values (gen_random_uuid(), 'v1', 'ebook/sample/x.pdf', 'encrypted') $$, '42501', 'permission denied for table unstampable_files',
  'ebook: cannot insert');
select throws_ok($$ update public.unstampable_files set reason = 'damaged' $$, '42501', 'permission denied for table unstampable_files',
  'ebook: cannot update');
select throws_ok($$ delete from public.unstampable_files $$, '42501', 'permission denied for table unstampable_files',
  'ebook: cannot delete');
select throws_ok($$ select public.record_unstampable_file('10000000-0000-4000-8000-000000000001', 'x', 'v9', 'encrypted') $$,
  '42501', null, 'ebook: cannot record');
select throws_ok('select public.staff_dashboard()', '42501', 'only staff can read the dashboard', 'ebook: no dashboard');
reset role;

-- Staff ------------------------------------------------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);
select results_eq($$ select file_version from public.unstampable_files order by file_version $$, $$ values ('v0'), ('v1') $$,
  'staff: read every row');
select throws_ok($$ insert into public.unstampable_files (object_id, file_version, file_name, reason)
  values (gen_random_uuid(), 'v1', 'ebook/sample/x.pdf', 'encrypted') $$, '42501', 'permission denied for table unstampable_files',
  'staff: cannot insert');
select throws_ok($$ select public.record_unstampable_file('10000000-0000-4000-8000-000000000001', 'x', 'v9', 'encrypted') $$,
  '42501', null, 'staff: cannot record');
select is(jsonb_array_length(public.staff_dashboard() -> 'unstampable_files'), 1,
  'staff: the dashboard lists the file once, for the version in the bucket');
select is(((public.staff_dashboard() -> 'unstampable_files' -> 0) - 'first_seen') - 'last_seen',
  '{"name": "ebook/sample/locked.pdf", "reason": "encrypted", "refusals": 2}'::jsonb,
  'staff: with its name, reason and refusals');
select ok((public.staff_dashboard() -> 'unstampable_files' -> 0 ->> 'last_seen')::timestamptz <= now(),
  'staff: and when members last hit it');
reset role;

-- Staff replace the file: a new version, nothing to do any more.
update storage.objects set version = 'v2' where id = '10000000-0000-4000-8000-000000000001';
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);
select is(public.staff_dashboard() -> 'unstampable_files', '[]'::jsonb, 'staff: a replaced file leaves the list');
reset role;

-- Or remove it (as the Storage API does: hosted Storage's delete guard lets this through).
update storage.objects set version = 'v1' where id = '10000000-0000-4000-8000-000000000001';
select set_config('storage.allow_delete_query', 'true', true);
delete from storage.objects where id = '10000000-0000-4000-8000-000000000001';
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);
select is(public.staff_dashboard() -> 'unstampable_files', '[]'::jsonb, 'staff: a removed file leaves the list');
reset role;

select * from finish();
rollback;
