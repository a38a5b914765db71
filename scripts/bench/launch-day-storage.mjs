#!/usr/bin/env node
// @ts-check
// `npm run bench:launch-storage`: what a launch day stores in the stamped-downloads bucket.
//
// A stand-in of its own with the seeded sample catalog (packages/supabase-stand-in/sample-files.mjs)
// runs the real download function. N new members of the top tier (100 unless --members N), each
// signed in from a loopback address of their own (the auth server's per-IP limits), download
// every stampable file of the catalog (PDF and EPUB) once, C at a time (--concurrency, 4), and
// follow each link. Then the bucket is summed as Storage records it (each object's metadata size)
// and checked against the bytes served. Prints, per file, the original's size and its stamped
// copy's, then the total per member and for all N, and what one copy adds to its original, so the
// figure scales to a real catalog: members × (the catalog's stampable bytes + files × that).
//
// Exits 1 when the bucket does not hold exactly one copy per member and file, or its bytes are not
// the bytes served.
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { ANON_KEY, SERVICE_ROLE_KEY } from '../../packages/supabase-stand-in/keys.mjs';
import { fetchFrom, nextLoopbackAddress } from '../../packages/supabase-stand-in/loopback-fetch.mjs';
import { sampleResourceFiles } from '../../packages/supabase-stand-in/sample-files.mjs';
import { startServer } from '../../packages/supabase-stand-in/server.mjs';

const TOP_TIER = 'complete';
const PASSWORD = 'launch-storage-1';
const CLIENT_OPTIONS = {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  // Node 20 has no global WebSocket; realtime is not used here.
  realtime: { transport: /** @type {any} */ (WebSocket) },
};

/** @param {string[]} argv */
function parseArgs(argv) {
  const opts = { members: 100, concurrency: 4 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = Number(argv[++i]);
    if (arg === '--members') opts.members = value;
    else if (arg === '--concurrency') opts.concurrency = value;
    else throw new Error(`unknown argument ${arg} (use --members N, --concurrency C)`);
    if (!Number.isInteger(value) || value < 1) throw new Error(`${arg} needs a positive whole number`);
  }
  return opts;
}

/** Every file of the seeded catalog the download function stamps (as stampKind decides: PDF, EPUB). */
function stampableFiles() {
  return sampleResourceFiles.flatMap((card) =>
    card.sampleFiles.filter((file) => /\.(pdf|epub)$/i.test(file)).map((file) => `${card.tier}/${card.slug}/${file}`),
  );
}

/**
 * A confirmed member of the top tier, signed in from an address of their own: their token.
 * @param {string} url @param {import('@supabase/supabase-js').SupabaseClient} admin @param {number} n
 */
async function member(url, admin, n) {
  const email = `launch-${n}-${Date.now()}@example.com`;
  const created = await admin.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
  if (created.error || !created.data.user) throw created.error ?? new Error('no user');
  const granted = await admin
    .from('tier_grants')
    .insert({ user_id: created.data.user.id, tier: TOP_TIER, reason: 'bench:launch-storage' });
  if (granted.error) throw granted.error;
  const client = createClient(url, ANON_KEY, {
    ...CLIENT_OPTIONS,
    global: { fetch: fetchFrom(nextLoopbackAddress()) },
  });
  const signedIn = await client.auth.signInWithPassword({ email, password: PASSWORD });
  if (signedIn.error || !signedIn.data.session) throw signedIn.error ?? new Error('no session');
  return signedIn.data.session.access_token;
}

/**
 * One download through the function, the link followed: the bytes served.
 * @param {string} url @param {string} token @param {string} name
 */
async function download(url, token, name) {
  const answer = await fetch(`${url}/functions/v1/download?path=${encodeURIComponent(name)}`, {
    headers: { apikey: ANON_KEY, Authorization: `Bearer ${token}`, Accept: 'application/json' },
  });
  if (answer.status !== 200) throw new Error(`${name}: ${answer.status} ${await answer.text()}`);
  const { url: link } = /** @type {{ url: string }} */ (await answer.json());
  const file = await fetch(link);
  if (file.status !== 200) throw new Error(`${name}: the link answered ${file.status}`);
  return (await file.arrayBuffer()).byteLength;
}

/**
 * Runs `jobs` `concurrency` at a time; resolves with their results in order.
 * @template T @param {(() => Promise<T>)[]} jobs @param {number} concurrency
 */
async function pooled(jobs, concurrency) {
  /** @type {T[]} */
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await /** @type {() => Promise<T>} */ (jobs[i])();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
  return results;
}

/**
 * Per file of the resources bucket: its size, and its stamped copies' count and bytes.
 * @param {{ query: (sql: string) => Promise<{ rows: any[] }> }} db
 * @returns {Promise<{ file: string, original: number, copies: number, stamped: number }[]>}
 */
async function bucketByFile(db) {
  const { rows } = await db.query(
    `select r.name as file, (r.metadata ->> 'size')::bigint as original,
            count(s.id)::int as copies, coalesce(sum((s.metadata ->> 'size')::bigint), 0)::bigint as stamped
     from storage.objects r
     join storage.objects s on s.bucket_id = 'stamped-downloads' and split_part(s.name, '/', 2) = r.id::text
     where r.bucket_id = 'resources'
     group by r.name, r.metadata
     order by r.name`,
  );
  return rows.map((row) => ({ ...row, original: Number(row.original), stamped: Number(row.stamped) }));
}

/** @param {number} bytes */
const size = (bytes) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(2)} MB` : `${(bytes / 1e3).toFixed(1)} KB`);

/**
 * The figures, printed; the problems found.
 * @param {{ file: string, original: number, copies: number, stamped: number }[]} rows
 * @param {{ members: number, files: string[], served: number, seconds: number }} run
 */
function report(rows, { members, files, served, seconds }) {
  console.table(
    rows.map((row) => ({
      file: row.file,
      'original bytes': row.original,
      'stamped copy bytes (mean)': Math.round(row.stamped / row.copies),
      copies: row.copies,
    })),
  );
  const stored = rows.reduce((sum, row) => sum + row.stamped, 0);
  const originals = rows.reduce((sum, row) => sum + row.original, 0);
  const copies = rows.reduce((sum, row) => sum + row.copies, 0);
  const perMember = stored / members;
  console.log(`${members} members × ${files.length} stampable files = ${copies} copies in ${seconds.toFixed(0)} s`);
  console.log(`stored per member:      ${Math.round(perMember)} bytes (${size(perMember)})`);
  console.log(`stored for ${members} members: ${stored} bytes (${size(stored)})`);
  console.log(`the catalog's originals: ${originals} bytes, × ${(perMember / originals).toFixed(2)} per member`);
  for (const kind of ['pdf', 'epub']) {
    const ofKind = rows.filter((row) => row.file.endsWith(`.${kind}`));
    const added = ofKind.reduce((sum, row) => sum + row.stamped / row.copies - row.original, 0) / ofKind.length;
    console.log(`a stamped ${kind.toUpperCase()} differs from its original by ${Math.round(added)} bytes on average`);
  }
  return [
    ...(copies !== members * files.length ? [`${copies} copies, expected ${members * files.length}`] : []),
    ...(stored !== served ? [`the bucket holds ${stored} bytes, ${served} were served`] : []),
    ...rows.filter((row) => !files.includes(row.file)).map((row) => `${row.file} was stamped, but is not stampable`),
  ];
}

async function main() {
  const { members, concurrency } = parseArgs(process.argv.slice(2));
  const files = stampableFiles();
  const server = await startServer({ port: 0, quiet: true, dataDir: null, seedSampleFiles: true });
  try {
    const admin = createClient(server.url, SERVICE_ROLE_KEY, CLIENT_OPTIONS);
    const started = performance.now();
    const tokens = await pooled(
      Array.from({ length: members }, (_, n) => () => member(server.url, admin, n)),
      concurrency,
    );
    const jobs = tokens.flatMap((token) => files.map((name) => () => download(server.url, token, name)));
    const served = (await pooled(jobs, concurrency)).reduce((sum, bytes) => sum + bytes, 0);
    const seconds = (performance.now() - started) / 1000;
    const problems = report(await bucketByFile(server.db), { members, files, served, seconds });
    for (const problem of problems) console.error(`wrong: ${problem}`);
    process.exitCode = problems.length > 0 ? 1 : 0;
  } finally {
    await server.close();
  }
}

await main();
