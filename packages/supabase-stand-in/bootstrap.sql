-- Platform bootstrap for PGlite: the small part of what a Supabase project provides before
-- any migration runs, copied as faithfully as this project needs. The migrations in
-- supabase/migrations/ are written against the hosted platform and must run unchanged on
-- top of this file; nothing here is app-specific. Definitions follow supabase/postgres
-- (roles, default privileges), supabase/auth (auth.users, auth.identities, auth.uid()...)
-- and supabase/storage (storage.buckets, storage.objects, storage.foldername()...).
--
-- Runs once, as the PGlite superuser `postgres`, on an empty database.

-- ---------------------------------------------------------------------------------------
-- Roles. PostgREST connects as `authenticator` and switches to the JWT's role.
-- ---------------------------------------------------------------------------------------
create role anon nologin noinherit;
create role authenticated nologin noinherit;
create role service_role nologin noinherit bypassrls;
create role authenticator login noinherit;
grant anon, authenticated, service_role to authenticator;
-- Owners of the platform schemas on the hosted stack; kept so `alter ... owner to` in
-- copied platform SQL would not fail. They own nothing here.
create role supabase_auth_admin nologin noinherit;
create role supabase_storage_admin nologin noinherit;

-- ---------------------------------------------------------------------------------------
-- Schemas and extensions.
-- ---------------------------------------------------------------------------------------
create schema if not exists extensions;
create extension if not exists pgcrypto with schema extensions;
grant usage on schema extensions to anon, authenticated, service_role;

create schema if not exists auth;
create schema if not exists storage;
grant usage on schema auth to anon, authenticated, service_role;
grant usage on schema storage to anon, authenticated, service_role;

-- Supabase's default privileges: every new table, function and sequence in public is
-- granted to the API roles, which is why migrations must revoke before they grant.
grant usage on schema public to postgres, anon, authenticated, service_role;
grant all on schema public to postgres, service_role;
alter default privileges in schema public grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to postgres, anon, authenticated, service_role;

-- The Supabase CLI records applied migrations here (`supabase migration list`).
create schema if not exists supabase_migrations;
create table supabase_migrations.schema_migrations (
  version text primary key,
  statements text[],
  name text
);

-- ---------------------------------------------------------------------------------------
-- auth: the columns GoTrue reads and seeds commonly write.
-- ---------------------------------------------------------------------------------------
create table auth.users (
  instance_id uuid,
  id uuid primary key,
  aud varchar(255),
  role varchar(255),
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255) default '',
  confirmation_sent_at timestamptz,
  recovery_token varchar(255) default '',
  recovery_sent_at timestamptz,
  email_change_token_new varchar(255) default '',
  email_change varchar(255) default '',
  email_change_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb default '{}'::jsonb,
  raw_user_meta_data jsonb default '{}'::jsonb,
  is_super_admin boolean,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  phone text unique default null,
  phone_confirmed_at timestamptz,
  phone_change text default '',
  phone_change_token varchar(255) default '',
  phone_change_sent_at timestamptz,
  confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
  email_change_token_current varchar(255) default '',
  email_change_confirm_status smallint default 0 check (email_change_confirm_status >= 0 and email_change_confirm_status <= 2),
  banned_until timestamptz,
  reauthentication_token varchar(255) default '',
  reauthentication_sent_at timestamptz,
  is_sso_user boolean not null default false,
  deleted_at timestamptz,
  is_anonymous boolean not null default false
);
comment on table auth.users is 'Auth: stores user login data within a secure schema.';
create unique index users_email_partial_key on auth.users (email) where (is_sso_user = false);
-- GoTrue's own indexes on its instance (every query of internal/models/user.go asks for
-- instance_id = uuid.Nil): migrations/00_init_auth_schema.up.sql and
-- 20220114185221_update_user_idx.up.sql in github.com/supabase/auth.
create index users_instance_id_idx on auth.users using btree (instance_id);
create index users_instance_id_email_idx on auth.users using btree (instance_id, lower(email));

create table auth.identities (
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  email text generated always as (lower(identity_data ->> 'email')) stored,
  id uuid primary key default gen_random_uuid(),
  constraint identities_provider_id_provider_unique unique (provider_id, provider)
);
comment on table auth.identities is 'Auth: stores identities associated to a user.';

-- Sessions and refresh tokens, as GoTrue's migrations leave them (00_init_auth_schema,
-- 20210927181326 parent, 20220811173540 sessions, 20221003041400 aal/factor_id,
-- 20221114143122 not_after, 20231027141322 refreshed_at/user_agent/ip). A JWT's session_id
-- points at auth.sessions; deleting a session deletes its refresh tokens (on delete cascade),
-- which is how GoTrue signs a user out and how a trigger on auth.users can end sessions.
create table auth.sessions (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz,
  updated_at timestamptz,
  factor_id uuid,
  aal text,
  not_after timestamptz,
  refreshed_at timestamp without time zone,
  user_agent text,
  ip inet,
  tag text
);
comment on table auth.sessions is 'Auth: Stores session data associated to a user.';
create index sessions_user_id_idx on auth.sessions (user_id);

create table auth.refresh_tokens (
  instance_id uuid,
  id bigserial primary key,
  token varchar(255) constraint refresh_tokens_token_unique unique,
  user_id varchar(255),
  revoked boolean,
  created_at timestamptz,
  updated_at timestamptz,
  parent varchar(255),
  session_id uuid references auth.sessions (id) on delete cascade
);
comment on table auth.refresh_tokens is 'Auth: Store of tokens used to refresh JWT tokens once they expire.';
create index refresh_tokens_session_id_revoked_idx on auth.refresh_tokens (session_id, revoked);

-- The JWT of the current request, as PostgREST / storage / realtime set it:
-- `request.jwt.claims` (JSON, current) or `request.jwt.claim.*` (legacy, one per claim).
create function auth.jwt() returns jsonb
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

create function auth.uid() returns uuid
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

create function auth.role() returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;

create function auth.email() returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;

grant execute on function auth.jwt(), auth.uid(), auth.role(), auth.email() to anon, authenticated, service_role;
-- On the platform only the auth server touches these tables; API roles get nothing.
grant all on auth.users, auth.identities, auth.sessions, auth.refresh_tokens to service_role;

-- ---------------------------------------------------------------------------------------
-- storage: buckets and objects. The storage server enforces a bucket's public flag,
-- file_size_limit and allowed_mime_types itself; RLS on storage.objects decides who may
-- read and write which object, evaluated as the caller's role with the caller's JWT.
-- ---------------------------------------------------------------------------------------
create table storage.buckets (
  id text primary key,
  name text not null,
  owner uuid,
  owner_id text,
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  created_at timestamptz default now(),
  updated_at timestamptz default now()
);
create unique index bname on storage.buckets using btree (name);

create table storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  user_metadata jsonb
);
create unique index bucketid_objname on storage.objects using btree (bucket_id, name);
create index name_prefix_search on storage.objects using btree (name text_pattern_ops);

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;

grant all on storage.buckets, storage.objects to anon, authenticated, service_role;

create function storage.foldername(name text) returns text[]
language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1 : array_length(_parts, 1) - 1];
end
$$;

create function storage.filename(name text) returns text
language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[array_length(_parts, 1)];
end
$$;

create function storage.extension(name text) returns text
language plpgsql immutable
as $$
declare
  _parts text[];
  _filename text;
begin
  select string_to_array(name, '/') into _parts;
  select _parts[array_length(_parts, 1)] into _filename;
  return reverse(split_part(reverse(_filename), '.', 1));
end
$$;

create function storage.update_updated_at_column() returns trigger
language plpgsql
as $$
begin
  new.updated_at = now();
  return new;
end
$$;

create trigger update_objects_updated_at
  before update on storage.objects
  for each row execute function storage.update_updated_at_column();

grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text)
  to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------
-- realtime: the publication postgres_changes listens to, created empty as on the platform.
-- ---------------------------------------------------------------------------------------
create publication supabase_realtime;
