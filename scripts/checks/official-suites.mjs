// @ts-check
// Runs supabase-js's own integration suites (auth-js and storage-js, from a checkout of
// supabase/supabase-js) against the local stand-in, as their repository runs them against
// `supabase start`: the same tests, the CLI's URL and demo keys. Nothing of supabase-js is kept
// in this repository: the script copies the two packages' `src` and `test` folders from the
// checkout you name into a temporary folder and writes there what it adapts:
//
// - auth-js `test/lib/clients.ts`: the suite signs its keys with an RS256 key of its own
//   (test/supabase/signing_keys.json, made by its setup script); the stand-in, like `supabase
//   start` without signing keys, knows HS256 only, so the same clients get the demo keys.
// - `jsonwebtoken` and `@faker-js/faker`, which the suites import and this repository does not
//   install: small modules for the calls the tests make (jwt.sign; faker's e-mail, password…).
// - jest's globals on Vitest's `vi` (the suites are jest suites; Vitest runs them).
// - the URL: the tests name http://127.0.0.1:54321, rewritten to the stand-in's.
//
// The stand-in runs in this process (startServer, in memory) in the posture of the suites'
// test/supabase/config.toml (confirmations off, double-confirmed e-mail changes, 100 e-mails an
// hour). The CLI's GoTrue is given no rate-limit header, so it limits nothing per address; the
// stand-in limits as hosted does, so each auth POST comes from a loopback address of its own
// (loopback-fetch.mjs), as in the stand-in's own tests. storage-js's seed (test/supabase/seed.sql)
// is run as the CLI runs it, and its object tests' createBucket is done by the harness in the
// database (the stand-in serves no bucket management; see bucketServer).
//
//   node scripts/checks/official-suites.mjs --supabase-js <checkout> [--suite auth|storage]
//     [--files GoTrueApi.test.ts,...] [--list]
//
// Check out the tag of the @supabase/supabase-js version in package-lock.json (v2.109.0).
// Each test is then counted: client-only (it sent the stand-in nothing: mocks, URL building), out
// of scope (OUT_OF_SCOPE: what the stand-in does not serve, or what needs the CLI's gateway), or
// in scope. The exit code is 1 when an in-scope test fails. packages/supabase-stand-in/README.md,
// "The official supabase-js suites", has the last totals.
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const requireFromRepo = createRequire(path.join(repo, 'package.json'));

/** The test files of each suite that talk to a server (the others are unit tests with mocks). */
const SUITES = {
  auth: { pkg: 'auth-js', files: ['test/GoTrueApi.test.ts', 'test/GoTrueClient.test.ts'] },
  storage: {
    pkg: 'storage-js',
    files: [
      'test/storageFileApi.test.ts',
      'test/storageBucketApi.test.ts',
      'test/storageApi.test.ts',
      'test/storageFileApiNode.test.ts',
    ],
  },
};

/**
 * Tests that reach the stand-in for what it does not serve (README, "Not supported"), matched on
 * their full name. A test the gateway refused for want of an API key is out of scope too (found
 * as it runs, see setupFile): `supabase start`'s Kong lets such requests through to the service,
 * the stand-in refuses them as hosted does.
 * @type {Array<[RegExp, string]>}
 */
const OUT_OF_SCOPE = [
  [/RS256/, 'needs an RS256 signing key (the stand-in verifies HS256 only)'],
  [/generateLink supports (signUp|updating emails)/, 'generate_link types other than invite and recovery'],
  [/phone|sms|verifyOTP fails with empty options/i, 'phone sign-in'],
  [/\bMFA\b|mfa |WebAuthn/, 'MFA'],
  [/OAuth Admin/, 'the OAuth server'],
  [/signInWithOtp/, 'magic-link / OTP sign-in'],
  [/signInAnonymously/, 'anonymous sign-in'],
  [/Web3/, 'web3 sign-in'],
  [/ID Token Authentication/, 'id_token sign-in'],
  [/Reauthentication/, 'reauthentication codes'],
  [/Identity Management/, 'identity linking'],
  [/SSO Authentication/, 'SSO'],
  [
    /^bucket api (Get all buckets|create new|update bucket|partially update|empty bucket|delete bucket)/,
    'bucket management',
  ],
  [/list objects V2/, 'POST /object/list-v2'],
  [/transformed|Transformations will download|transform and fetch|as webp|format is origin/, 'image transforms'],
];

const NO_API_KEY = 'sent no API key (the CLI’s gateway passes it on; the stand-in refuses it, as hosted)';

/** jsonwebtoken's `sign` for the calls the suites make: HS256 (default) or RS256, `iat` added. */
const JSONWEBTOKEN_MODULE = `const { createHmac, createSign } = require('node:crypto');
const b64 = (v) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
function sign(payload, key, options = {}) {
  const alg = options.algorithm || 'HS256';
  const header = Object.assign({ alg, typ: 'JWT' }, options.keyid ? { kid: options.keyid } : {});
  const body = Object.assign({ iat: Math.floor(Date.now() / 1000) }, payload);
  if (options.expiresIn !== undefined) body.exp = body.iat + Number(options.expiresIn);
  const input = b64(header) + '.' + b64(body);
  const sig = alg === 'HS256'
    ? createHmac('sha256', key).update(input).digest('base64url')
    : createSign('RSA-SHA256').update(input).sign(key, 'base64url');
  return input + '.' + sig;
}
const decode = (token) => JSON.parse(Buffer.from(String(token).split('.')[1] || '', 'base64url').toString());
module.exports = { sign, decode };
`;

/** faker's calls the suites make, with random values of the same kind. */
const FAKER_MODULE = `const { randomBytes, randomInt } = require('node:crypto');
const alnum = (n) => Array.from({ length: n }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[randomInt(36)]).join('');
exports.faker = {
  internet: {
    email: () => 'user.' + alnum(12) + '@example.com',
    password: () => randomBytes(12).toString('base64url'),
    domainName: () => alnum(10) + '.example.com',
  },
  image: {
    avatarGitHub: () => 'https://avatars.githubusercontent.com/u/' + randomInt(1, 9999999),
    url: () => 'https://picsum.photos/seed/' + alnum(8) + '/640/480',
  },
  string: { alphanumeric: (n) => alnum(typeof n === 'number' ? n : 1) },
};
`;

/**
 * auth-js test/lib/clients.ts with the demo keys (HS256): the same exports, the same clients.
 * @param {{ anonKey: string, serviceKey: string, adminJwt: string }} keys
 */
const authClients = ({
  anonKey,
  serviceKey,
  adminJwt,
}) => `import { GoTrueAdminApi, GoTrueClient, type GoTrueClientOptions } from '../../src/index'
import { SupportedStorage } from '../../src/lib/types'
export const GOTRUE_URL_SIGNUP_ENABLED_AUTO_CONFIRM_ON = 'http://127.0.0.1:54321/auth/v1'
export const GOTRUE_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long'
export const SUPABASE_PUBLISHABLE_KEY = ${JSON.stringify(anonKey)}
export const SUPABASE_SECRET_KEY = ${JSON.stringify(serviceKey)}
const AUTH_ADMIN_JWT = ${JSON.stringify(adminJwt)}
class MemoryStorage {
  private _storage: { [name: string]: string } = {}
  async setItem(name: string, value: string) { this._storage[name] = value }
  async getItem(name: string): Promise<string | null> { return this._storage[name] || null }
  async removeItem(name: string) { delete this._storage[name] }
}
const url = GOTRUE_URL_SIGNUP_ENABLED_AUTO_CONFIRM_ON
const headers = { apikey: SUPABASE_PUBLISHABLE_KEY }
const client = (extra: GoTrueClientOptions = {}) =>
  new GoTrueClient({ url, headers, autoRefreshToken: false, persistSession: true, storage: new MemoryStorage(), ...extra })
export const authClient = client()
export const authClientWithSession = client()
export const authSubscriptionClient = client()
export const clientApiAutoConfirmEnabledClient = client()
export const pkceClient = client({ flowType: 'pkce' })
export const autoRefreshClient = new GoTrueClient({ url, headers, autoRefreshToken: true, persistSession: true })
export const authAdminApiAutoConfirmEnabledClient = new GoTrueAdminApi({
  url,
  headers: { apikey: SUPABASE_SECRET_KEY, Authorization: 'Bearer ' + AUTH_ADMIN_JWT },
})
export const serviceRoleApiClient = new GoTrueAdminApi({
  url,
  headers: { apikey: SUPABASE_SECRET_KEY, Authorization: 'Bearer ' + SUPABASE_SECRET_KEY },
})
export function getClientWithSpecificStorage(storage: SupportedStorage) {
  return new GoTrueClient({ url, headers, storageKey: 'test-specific-storage', autoRefreshToken: false, persistSession: true, storage })
}
export function getClientWithSpecificStorageKey(storageKey: string, opts: GoTrueClientOptions = {}) {
  return new GoTrueClient({ url, headers, autoRefreshToken: false, persistSession: true, storageKey, ...opts })
}
`;

/**
 * The workers' setup: jest's globals on Vitest's `vi`; auth POSTs from loopback addresses of
 * their own; bucket creation to the harness; and, per test, whether it reached the stand-in and
 * whether the gateway refused it for want of a key (one line per event in `hitsFile`).
 * @param {{ loopbackFetch: string, bucketsUrl: string, standIn: string, hitsFile: string }} o
 */
const setupFile = (o) => `import { createRequire } from 'node:module';
import { appendFileSync } from 'node:fs';
import { fetchFrom, nextLoopbackAddress } from ${JSON.stringify(o.loopbackFetch)};
const require = createRequire(import.meta.url);
const vi = globalThis.vi;
globalThis.jest = Object.assign(Object.create(vi), {
  requireActual: (id) => require(id),
  doMock: (id, factory) => vi.doMock(id, factory),
  setTimeout: (ms) => vi.setConfig({ testTimeout: ms }),
});
let current = null;
beforeEach((ctx) => { current = ctx.task.id; });
afterEach(() => { current = null; });
const note = (what) => { if (current) appendFileSync(${JSON.stringify(o.hitsFile)}, current + ' ' + what + '\\n'); };
const realFetch = globalThis.fetch;
async function send(input, init) {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  if (method === 'POST' && url.pathname.endsWith('/storage/v1/bucket')) return realFetch(${JSON.stringify(o.bucketsUrl)}, init);
  if (url.origin !== ${JSON.stringify(o.standIn)}) return realFetch(input, init);
  note('hit');
  const limited = url.pathname.startsWith('/auth/v1/') && method !== 'GET';
  const res = await (limited ? fetchFrom(nextLoopbackAddress())(input, init) : realFetch(input, init));
  if (res.status === 401) {
    const body = await res.clone().json().catch(() => ({}));
    if (body.message === 'No API key found in request') note('nokey');
  }
  return res;
}
globalThis.fetch = send;
`;

/**
 * hosted Storage's bucket size limits (supabase/storage src/storage/limits.ts parseFileSizeToBytes).
 * @param {unknown} limit
 */
function fileSizeLimit(limit) {
  if (limit === undefined || limit === null) return null;
  if (typeof limit === 'number') return limit;
  const m = /^([0-9]+(?:\.[0-9]+)?)(gb|mb|kb|b)$/i.exec(String(limit));
  if (!m) return null;
  const units = { gb: 1e9, mb: 1e6, kb: 1e3, b: 1 };
  return Number(m[1]) * units[/** @type {keyof typeof units} */ ((m[2] ?? 'b').toLowerCase())];
}

/**
 * The stand-in serves no bucket management (the app's buckets come from its migrations), but
 * storage-js's object tests make a bucket of their own first (createBucket). The harness makes it
 * in the database, as the CLI's storage-api would, and nothing else of the bucket API: the bucket
 * API's own tests stay out of scope.
 * @param {import('@electric-sql/pglite').PGlite} db
 */
async function bucketServer(db) {
  const server = http.createServer(async (req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const b = JSON.parse(Buffer.concat(chunks).toString() || '{}');
    const id = String(b.id ?? b.name);
    const r = await db.query(
      `insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
         values ($1, $2, $3, $4, $5) on conflict (id) do nothing returning id`,
      [id, String(b.name ?? id), Boolean(b.public), fileSizeLimit(b.file_size_limit), b.allowed_mime_types ?? null],
    );
    const created = r.rows.length > 0;
    const duplicate = { statusCode: '409', error: 'Duplicate', message: 'The resource already exists' };
    res.writeHead(created ? 200 : 400, { 'content-type': 'application/json' });
    res.end(JSON.stringify(created ? { name: id } : { ...duplicate, code: 'BucketAlreadyExists' }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}/bucket`,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}

/**
 * A jest snapshot file as Vitest reads it: Vitest's header, and each key's describe names joined
 * by ' > ' instead of jest's ' ' (the names are read from the test file's describe calls).
 * @param {string} dir  the package folder
 * @param {string} snap  the snapshot file's name, `<test file>.snap`
 */
async function toVitestSnapshot(dir, snap) {
  const file = path.join(dir, 'test/__snapshots__', snap);
  const source = await readFile(path.join(dir, 'test', snap.replace(/\.snap$/, '')), 'utf8');
  const describes = [...source.matchAll(/describe\(\s*['"`]([^'"`]+)['"`]/g)].map((m) => m[1] ?? '');
  describes.sort((a, b) => b.length - a.length);
  /** @param {string} key */
  const vitestKey = (key) => {
    const parts = [];
    let rest = key;
    for (
      let d = describes.find((x) => rest.startsWith(`${x} `));
      d;
      d = describes.find((x) => rest.startsWith(`${x} `))
    ) {
      parts.push(d);
      rest = rest.slice(d.length + 1);
    }
    return [...parts, rest].join(' > ');
  };
  const text = (await readFile(file, 'utf8'))
    .replace(/^\/\/ Jest Snapshot v1, \S+/, '// Vitest Snapshot v1, https://vitest.dev/guide/snapshot.html')
    .replace(/^exports\[`(.*)`\]/gm, (_m, key) => `exports[\`${vitestKey(key)}\`]`);
  await writeFile(file, text);
}

/**
 * Writes the adapted files into the temporary folder and copies each suite's package there.
 * @param {{ work: string, supabaseJs: string, names: string[], files: string[] | null,
 *   setup: string, db: import('@electric-sql/pglite').PGlite }} o
 * @returns {Promise<string[]>} the test files to run, relative to `work`
 */
async function prepare({ work, supabaseJs, names, files, setup, db }) {
  const { ANON_KEY, SERVICE_ROLE_KEY, signJwt } = await import(path.join(repo, 'packages/supabase-stand-in/keys.mjs'));
  /** @type {Array<[string, string]>} */
  const modules = [
    ['jsonwebtoken', JSONWEBTOKEN_MODULE],
    ['@faker-js/faker', FAKER_MODULE],
  ];
  for (const [name, text] of modules) {
    const dir = path.join(work, 'node_modules', name);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name, main: 'index.js' }));
    await writeFile(path.join(dir, 'index.js'), text);
  }
  await writeFile(path.join(work, 'setup.mjs'), setup);
  /** @type {string[]} */
  const include = [];
  for (const name of names) {
    const suite = SUITES[/** @type {keyof typeof SUITES} */ (name)];
    const dir = path.join(work, suite.pkg);
    for (const sub of ['src', 'test'])
      await cp(path.join(supabaseJs, 'packages/core', suite.pkg, sub), path.join(dir, sub), { recursive: true });
    include.push(
      ...suite.files.filter((f) => !files || files.some((w) => f.endsWith(w))).map((f) => `${suite.pkg}/${f}`),
    );
    if (name === 'auth') {
      const adminJwt = await signJwt({ sub: '1234567890', role: 'supabase_admin' });
      const clients = authClients({ anonKey: ANON_KEY, serviceKey: SERVICE_ROLE_KEY, adminJwt });
      await writeFile(path.join(dir, 'test/lib/clients.ts'), clients);
    }
    for (const snap of await readdir(path.join(dir, 'test/__snapshots__')).catch(() => []))
      await toVitestSnapshot(dir, snap);
    if (name === 'storage') {
      // The CLI runs the seed after the migrations; pgcrypto is in its search_path's extensions.
      const seed = await readFile(path.join(dir, 'test/supabase/seed.sql'), 'utf8');
      await db.exec(`set search_path to public, extensions;\n${seed}\nreset search_path;`);
    }
  }
  return include;
}

/**
 * Each test's counting: client-only, out of scope (with why) or in scope, and its result.
 * @param {import('vitest/node').Vitest} vitest
 * @param {string} hitsText
 */
function classify(vitest, hitsText) {
  /** @type {Map<string, Set<string>>} */
  const events = new Map();
  for (const line of hitsText.split('\n').filter(Boolean)) {
    const [id = '', what = ''] = line.split(' ');
    events.set(id, (events.get(id) ?? new Set()).add(what));
  }
  /** @type {Array<{ file: string, name: string, state: string, scope: string }>} */
  const rows = [];
  /** @param {any} task @param {string[]} names @param {string} file */
  const walk = (task, names, file) => {
    if (task.type === 'test') {
      const name = [...names, task.name].join(' ');
      const seen = events.get(task.id);
      const rule = OUT_OF_SCOPE.find(([re]) => re.test(name));
      const scope = !seen ? 'client-only' : seen.has('nokey') ? NO_API_KEY : rule ? rule[1] : 'in scope';
      rows.push({ file, name, state: task.result?.state ?? task.mode, scope });
      return;
    }
    for (const child of task.tasks ?? []) walk(child, task.type === 'suite' ? [...names, task.name] : names, file);
  };
  for (const file of vitest.state.getFiles())
    for (const child of file.tasks) walk(child, [], path.basename(file.filepath));
  return rows;
}

/**
 * Prints the totals per suite and every in-scope failure, and the out-of-scope reasons.
 * @param {ReturnType<typeof classify>} rows
 * @param {boolean} list  print every test's counting too
 */
function report(rows, list) {
  for (const pkg of ['auth-js', 'storage-js']) {
    const mine = rows.filter((r) =>
      Object.values(SUITES).some((s) => s.pkg === pkg && s.files.some((f) => f.endsWith(r.file))),
    );
    if (mine.length === 0) continue;
    const inScope = mine.filter((r) => r.scope === 'in scope');
    const passed = inScope.filter((r) => r.state === 'pass');
    const out = mine.filter((r) => r.scope !== 'in scope' && r.scope !== 'client-only');
    console.log(`\n${pkg}: ${mine.length} tests; in scope ${passed.length} of ${inScope.length} passed;`);
    console.log(`  client-only ${mine.length - inScope.length - out.length}; out of scope ${out.length}:`);
    /** @type {Map<string, number>} */
    const reasons = new Map();
    for (const r of out) reasons.set(r.scope, (reasons.get(r.scope) ?? 0) + 1);
    for (const [why, n] of reasons) console.log(`    ${n}  ${why}`);
    for (const r of inScope.filter((x) => x.state !== 'pass'))
      console.log(`  FAILED (in scope): ${r.file} > ${r.name}`);
    if (list) for (const r of mine) console.log(`  [${r.state}] [${r.scope}] ${r.file} > ${r.name}`);
  }
  return rows.some((r) => r.scope === 'in scope' && r.state !== 'pass');
}

async function main() {
  const { values } = parseArgs({
    options: {
      'supabase-js': { type: 'string' },
      suite: { type: 'string' },
      files: { type: 'string' },
      list: { type: 'boolean' },
    },
  });
  const supabaseJs = values['supabase-js'];
  if (!supabaseJs) throw new Error('--supabase-js <checkout of supabase/supabase-js> is required');
  const names = values.suite ? [values.suite] : ['auth', 'storage'];
  for (const n of names) if (!(n in SUITES)) throw new Error(`--suite is auth or storage, not ${n}`);
  const { startServer } = await import(path.join(repo, 'packages/supabase-stand-in/server.mjs'));
  const server = await startServer({
    port: 0,
    dataDir: null,
    quiet: true,
    seedSampleFiles: false,
    authConfig: { enableConfirmations: false, doubleConfirmChanges: true, securePasswordChange: false, emailSent: 100 },
  });
  const buckets = await bucketServer(server.db);
  const work = await mkdtemp(path.join(os.tmpdir(), 'official-suites-'));
  try {
    const hitsFile = path.join(work, 'hits.txt');
    await writeFile(hitsFile, '');
    const loopbackFetch = path.join(repo, 'packages/supabase-stand-in/loopback-fetch.mjs');
    const setup = setupFile({ loopbackFetch, bucketsUrl: buckets.url, standIn: server.url, hitsFile });
    const files = values.files ? values.files.split(',') : null;
    const include = await prepare({ work, supabaseJs, names, files, setup, db: server.db });
    // As on CI: a snapshot the suite does not have fails instead of being written.
    process.env.CI = 'true';
    const { startVitest } = await import('vitest/node');
    const vitest = await startVitest(
      'test',
      [],
      {
        root: work,
        config: false,
        watch: false,
        globals: true,
        include,
        setupFiles: [path.join(work, 'setup.mjs')],
        fileParallelism: false,
        testTimeout: 30_000,
        hookTimeout: 30_000,
        reporters: ['dot'],
      },
      {
        resolve: { alias: { 'iceberg-js': requireFromRepo.resolve('iceberg-js') } },
        plugins: [
          {
            name: 'stand-in-url',
            /** @param {string} code @param {string} id */
            transform(code, id) {
              if (!id.startsWith(work) || !code.includes('127.0.0.1:54321')) return null;
              return { code: code.replaceAll('http://127.0.0.1:54321', server.url), map: null };
            },
          },
        ],
      },
    );
    if (!vitest) throw new Error('Vitest did not start');
    const failed = report(classify(vitest, await readFile(hitsFile, 'utf8')), Boolean(values.list));
    await vitest.close();
    process.exitCode = failed ? 1 : 0;
  } finally {
    await buckets.close();
    await server.close();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
