-- State the local stand-in keeps for itself, applied (idempotently) after the migrations and
-- the seed: one-time tokens for the e-mailed links and codes,
-- the local mail inbox, and the trigger that feeds Realtime's postgres_changes. Nothing here
-- is reachable by the API roles: only the server (connected as the superuser) reads it.

create schema if not exists _local;
revoke all on schema _local from public;
comment on schema _local is 'Local stand-in bookkeeping (sessions, refresh tokens, mail). Not exposed to API roles.';

-- Sessions and refresh tokens live in GoTrue's own tables, auth.sessions and
-- auth.refresh_tokens (bootstrap.sql), so the database's triggers can end them as on the
-- platform. A data folder made before those tables existed is rebuilt, not patched.
do $$
begin
  if to_regclass('auth.sessions') is null then
    raise exception 'This local data folder predates auth.sessions: rebuild it with npm run supabase:reset';
  end if;
end
$$;
drop table if exists _local.refresh_tokens;
drop table if exists _local.sessions;

/** One-time tokens (confirmation, recovery, e-mail change): a 6-digit code and the hash used in the e-mailed link (GoTrue's scheme). */
create table if not exists _local.one_time_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  token_type text not null,
  token_hash text not null unique,
  otp text not null,
  redirect_to text,
  created_at timestamptz not null default now()
);

/** What the auth server would have e-mailed; printed to the console and served at GET /inbox. */
create table if not exists _local.mail (
  id bigint generated always as identity primary key,
  recipient text not null,
  subject text not null,
  body text not null,
  link text,
  otp text,
  created_at timestamptz not null default now()
);

/**
 * Realtime feed: after each row change on a published table, notify the server with the
 * change. Rows too large for a NOTIFY (8000 bytes) go without their values; the server then
 * reads the row itself (as each subscriber). Security definer with an empty search_path so
 * it behaves the same whoever's statement fires it.
 */
create or replace function _local.realtime_notify()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  payload text;
begin
  payload := json_build_object(
    'schema', tg_table_schema,
    'table', tg_table_name,
    'type', tg_op,
    'commit_timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    'record', case when tg_op <> 'DELETE' then row_to_json(new) end,
    'old_record', case when tg_op <> 'INSERT' then row_to_json(old) end
  )::text;
  if octet_length(payload) > 7900 then
    payload := json_build_object(
      'schema', tg_table_schema, 'table', tg_table_name, 'type', tg_op, 'truncated', true,
      'commit_timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
    )::text;
  end if;
  perform pg_notify('local_realtime', payload);
  return null;
end
$$;
revoke all on function _local.realtime_notify() from public;

do $$
declare
  t record;
begin
  for t in select schemaname, tablename from pg_publication_tables where pubname = 'supabase_realtime' loop
    execute format('drop trigger if exists _local_realtime on %I.%I', t.schemaname, t.tablename);
    execute format(
      'create trigger _local_realtime after insert or update or delete on %I.%I for each row execute function _local.realtime_notify()',
      t.schemaname, t.tablename
    );
  end loop;
end
$$;
