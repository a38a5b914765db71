-- pgTAP: the pre-confirmation password trigger on the real platform's auth.users, auth.sessions and
-- auth.refresh_tokens (GoTrue's own tables). The full cases run on PGlite in
-- supabase/tests/pre-confirmation-password.test.ts. Everything runs in one transaction and is
-- rolled back; since the trigger keeps a password set by the confirming transaction itself,
-- the mark the insert left is cleared first, as a later request would find it.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

select plan(4);

insert into auth.users (instance_id, id, aud, role, email, encrypted_password, created_at, updated_at)
values ('00000000-0000-0000-0000-000000000000', 'a0000000-0000-4000-8000-0000000000a1', 'authenticated',
        'authenticated', 'pre-hijack@example.com', extensions.crypt('stranger', extensions.gen_salt('bf')), now(), now());
insert into auth.sessions (id, user_id, created_at, updated_at)
values ('a0000000-0000-4000-8000-0000000000b1', 'a0000000-0000-4000-8000-0000000000a1', now(), now());
insert into auth.refresh_tokens (token, user_id, revoked, session_id, created_at, updated_at)
values ('pre-hijack-refresh', 'a0000000-0000-4000-8000-0000000000a1', false,
        'a0000000-0000-4000-8000-0000000000b1', now(), now());

select set_config('yyc_auth.password_set_a00000000000400080000000000000a1', '', true);
update auth.users set email_confirmed_at = now() where id = 'a0000000-0000-4000-8000-0000000000a1';

select is((select encrypted_password from auth.users where id = 'a0000000-0000-4000-8000-0000000000a1'), '',
  'the password set before the first confirmation no longer opens the account');
select is((select count(*)::int from auth.sessions where user_id = 'a0000000-0000-4000-8000-0000000000a1'), 0,
  'its sessions end');
select is((select count(*)::int from auth.refresh_tokens where token = 'pre-hijack-refresh'), 0,
  'its refresh tokens end');

insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, created_at, updated_at)
values ('00000000-0000-0000-0000-000000000000', 'a0000000-0000-4000-8000-0000000000a2', 'authenticated',
        'authenticated', 'confirmed-first@example.com', extensions.crypt('own', extensions.gen_salt('bf')), now(), now(), now());
update auth.users set email_confirmed_at = now() where id = 'a0000000-0000-4000-8000-0000000000a2';
select isnt((select encrypted_password from auth.users where id = 'a0000000-0000-4000-8000-0000000000a2'), '',
  'an address confirmed already keeps its password');

select * from finish();
rollback;
