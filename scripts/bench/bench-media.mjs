#!/usr/bin/env node
// @ts-check
/* global document, window, requestAnimationFrame, addEventListener, HTMLInputElement, HTMLMediaElement -- benchWatcher runs in the page */
// `npm run bench:media`: how soon a member's audio and video play in /resources, on the phone of
// the public pages' rows (4x CPU slowdown, 150 ms round trips, 412 px, touch) with 10 Mbps down
// for video and 1.6 Mbps for audio. Makes its media with ffmpeg in a temporary folder (never
// kept in the repository): a 60 s 720p MP4 at 2 Mbps (H.264 + AAC, moov first), a one-hour one
// (10 s encoded once, concatenated 360 times without re-encoding, moov first, about 1 GB) and a
// 3-minute MP3. Starts a stand-in of its own (its own port and data), uploads the media into the
// resources bucket through Storage's resumable endpoint with the service role (the hour needs the
// 1 GiB of config.toml's [storage] file_size_limit), builds the site against it (behind the
// preflight proxy: on a phone a CORS preflight costs a round trip too; the download function
// signs links on that same origin, as hosted Supabase does), serves it as a static host does,
// and signs in a fresh accelerated member in each browser. Then, each case in a fresh Chromium,
// timed in the page from the touch event of the tap (or the slider's change) until the element
// plays: not paused, not seeking, enough data, its currentTime past where it started (a few tens
// of ms after its `playing` event, which the table shows too):
//
//   720p 2 Mbps MP4, 10 Mbps   tap Play → plays, the first tap of the page (cold: the player's
//                              chunk, then the download function's link, then the file) and,
//                              once the network is quiet again, a tap on a second copy of the
//                              file (warm: the chunk is there)                          ≤ 1.5 s
//   1 h MP4, 10 Mbps           the Position slider to 90 % while it plays → plays      ≤ 1.0 s
//                              shown without a budget: the slider to 80 % + 1 s (mid-GOP),
//                              and the first tap (its 3.4 MB moov comes before any frame)
//   MP3, 1.6 Mbps              tap Play → plays, cold and warm                          ≤ 1.0 s
//
// Prints each play as it goes and then the table: each row's median and max over the runs,
// and the medians of where the time went, in ms from the tap: the link asked and answered (the
// download function, after its preflight), the chunk answered, the first media request sent and
// answered, loadedmetadata, playing, and the media kB read until it played. Exits 1 when a
// median is over its budget.
//
//   npm run bench:media                       3 runs of each case (about 4 minutes)
//   npm run bench:media -- --runs 5
//   npm run bench:media -- --only hour        some cases only: video, hour, audio (comma-separated)
//   npm run bench:media -- --media-dir DIR    make the media in DIR and keep them (reused when there)
//
// Ports: MEDIA_SITE_PORT (default 4190) and MEDIA_STANDIN_PORT (default 54350). Needs ffmpeg.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, findChromium, playwrightHeadlessShell } from '../dev/browser.mjs';
import { PHONE } from './first-tap.mjs';
import { median, serveDist } from './perf.mjs';
import { startPreflightLatency } from './preflight-latency.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** From the tap (or the slider) until the element plays, at most (the medians). */
export const BUDGETS = { videoTapMs: 1500, seekMs: 1000, audioTapMs: 1000 };

/** The phone's network for video (10 Mbps down) and for audio (1.6 Mbps down): CDP's units, bytes/s. */
export const VIDEO_NETWORK = { latency: PHONE.latencyMs, download: 10e6 / 8, upload: 5e6 / 8 };
export const AUDIO_NETWORK = { latency: PHONE.latencyMs, download: 1.6e6 / 8, upload: 5e6 / 8 };

/**
 * Where the slider is put in the hour-long video: 90 % (3240 s, 0.15 s after a keyframe: each
 * 10 s piece starts with one, and has one every 2 s), then, shown without a budget, 80 % + 1 s
 * (2881 s, a second past a keyframe: a second of frames to fetch and decode before it shows).
 */
const SEEK_FRACTION = 0.9;
const BETWEEN_KEYFRAMES = { fraction: 0.8, plus: 1 };
/** Storage's resumable uploads take 6 MB chunks (supabase docs, "Resumable uploads"). */
const TUS_CHUNK = 6 * 1024 * 1024;
const AUTH_STORAGE_KEY = 'yes-you-can-auth';
const VIDEO_FOLDER = 'accelerated/masterclass';
const AUDIO_FOLDER = 'foundation/scripture-audio';

/**
 * What is uploaded: each file under the names its card lists it by (titles from the names, as
 * the cards show them: `bench-720p-again.mp4` is "Bench 720p again"). The warm taps play a second
 * copy, so no byte of it is in the browser's cache.
 */
const UPLOADS = /** @type {const} */ ([
  { file: 'clip', name: `${VIDEO_FOLDER}/bench-720p.mp4`, type: 'video/mp4' },
  { file: 'clip', name: `${VIDEO_FOLDER}/bench-720p-again.mp4`, type: 'video/mp4' },
  { file: 'hour', name: `${VIDEO_FOLDER}/bench-hour.mp4`, type: 'video/mp4' },
  { file: 'mp3', name: `${AUDIO_FOLDER}/bench-session.mp3`, type: 'audio/mpeg' },
  { file: 'mp3', name: `${AUDIO_FOLDER}/bench-session-again.mp3`, type: 'audio/mpeg' },
]);

/**
 * One timed play: `ms` until the element plays; the rest, where the time went (ms from the
 * start, null when it did not happen in that play).
 * @typedef {{ ms: number, linkAsked: number | null, link: number | null, chunk: number | null,
 *   firstBytes: number | null, metadata: number | null, playing: number | null,
 *   rangeSent: number | null, mediaRequests: number, kilobytes: number }} Play
 */
/** @typedef {{ name: string, limit: number | null, runs: Play[] }} Row */

/** The cases, by the name `--only` takes. */
const CASES = /** @type {const} */ (['video', 'hour', 'audio']);

function parseArgs(/** @type {string[]} */ argv) {
  const options = {
    runs: 3,
    mediaDir: /** @type {string | null} */ (null),
    only: /** @type {readonly (typeof CASES)[number][]} */ (CASES),
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--runs') options.runs = Number(argv[++i]);
    else if (arg === '--media-dir') options.mediaDir = path.resolve(String(argv[++i]));
    else if (arg === '--only') {
      const only = String(argv[++i]).split(',');
      const unknown = only.find((name) => !CASES.some((known) => known === name));
      if (unknown !== undefined) throw new Error(`--only takes ${CASES.join(', ')} (comma-separated)`);
      options.only = CASES.filter((name) => only.includes(name));
    } else throw new Error(`unknown argument ${arg}`);
  }
  if (!Number.isInteger(options.runs) || options.runs < 1) throw new Error('--runs takes a whole number >= 1');
  return options;
}

// ---------------------------------------------------------------------------------------------
// The media

/** Runs a program to completion; rejects with its last words on a non-zero exit. */
function run(/** @type {string} */ command, /** @type {string[]} */ args, env = process.env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    child.on('error', (error) =>
      reject(Object.assign(error, { message: `${command} did not start (${error.message}): is it installed?` })),
    );
    child.on('exit', (code) =>
      code === 0 ? resolve(undefined) : reject(new Error(`${command} exited with ${code}\n${stderr}`)),
    );
  });
}

const ffmpeg = (/** @type {string[]} */ args) => run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

/** The 720p picture (moving, with grain so that the encoder spends its 2 Mbps) and a tone. */
const VIDEO_SOURCE = ['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30,noise=alls=12:allf=t'];
const TONE = ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'];
/** H.264 High at 2 Mbps (a 2 s GOP, as for streaming), AAC 128 kbps stereo. */
const VIDEO_CODECS = [
  ...['-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high', '-pix_fmt', 'yuv420p'],
  ...['-b:v', '2M', '-maxrate', '2M', '-bufsize', '4M', '-g', '60'],
  ...['-c:a', 'aac', '-b:a', '128k', '-ac', '2'],
];

/**
 * Makes the media in `dir` (each kept when already there): the 60 s clip, the hour (a 10 s
 * segment concatenated 360 times, stream copy) and the MP3; checks the hour's size and that
 * every MP4 has its moov before its mdat.
 * @param {string} dir
 */
async function makeMedia(dir) {
  const files = {
    clip: path.join(dir, 'bench-720p.mp4'),
    hour: path.join(dir, 'bench-hour.mp4'),
    mp3: path.join(dir, 'bench-session.mp3'),
  };
  const segment = path.join(dir, 'segment-10s.mp4');
  const made = (/** @type {string} */ file) => existsSync(file) && statSync(file).size > 0;
  if (!made(files.clip)) {
    console.log('[media] encoding the 60 s 720p clip…');
    await ffmpeg([...VIDEO_SOURCE, ...TONE, '-t', '60', ...VIDEO_CODECS, '-movflags', '+faststart', files.clip]);
  }
  if (!made(files.hour)) {
    console.log('[media] encoding 10 s, then concatenating it 360 times into an hour…');
    await ffmpeg([...VIDEO_SOURCE, ...TONE, '-t', '10', ...VIDEO_CODECS, '-movflags', '+faststart', segment]);
    const list = path.join(dir, 'hour.txt');
    writeFileSync(list, `file '${path.basename(segment)}'\n`.repeat(360));
    await ffmpeg(['-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy', '-movflags', '+faststart', files.hour]);
    rmSync(segment, { force: true });
  }
  if (!made(files.mp3)) {
    console.log('[media] encoding the 3-minute MP3…');
    await ffmpeg([...TONE, '-t', '180', '-c:a', 'libmp3lame', '-b:a', '128k', '-ac', '2', files.mp3]);
  }
  const clip = await mp4Layout(files.clip);
  const hour = await mp4Layout(files.hour);
  if (hour.bytes < 800e6 || hour.bytes > 1024 ** 3) {
    throw new Error(`the hour is ${(hour.bytes / 1e6).toFixed(0)} MB: expected 0.8 GB to 1 GiB`);
  }
  for (const [file, layout] of /** @type {const} */ ([
    [files.clip, clip],
    [files.hour, hour],
  ])) {
    if (!layout.moovFirst) throw new Error(`${file}: the moov is not before the mdat (${layout.boxes})`);
  }
  const mb = (/** @type {number} */ bytes) => `${(bytes / 1e6).toFixed(bytes < 10e6 ? 2 : 0)} MB`;
  console.log(
    `[media] clip ${mb(clip.bytes)} (moov ${mb(clip.moovBytes)}), hour ${mb(hour.bytes)} (moov ${mb(hour.moovBytes)} first: ${hour.boxes}), MP3 ${mb(statSync(files.mp3).size)}`,
  );
  return files;
}

/**
 * An MP4's top-level boxes, in order: whether the moov comes before the mdat (faststart), the
 * moov's size (what a player reads before its first frame) and the file's.
 * @param {string} file
 */
export async function mp4Layout(file) {
  const handle = await open(file);
  try {
    const bytes = (await handle.stat()).size;
    const header = Buffer.alloc(16);
    /** @type {{ type: string, size: number }[]} */
    const boxes = [];
    for (let offset = 0; offset < bytes;) {
      await handle.read(header, 0, 16, offset);
      let size = header.readUInt32BE(0);
      if (size === 1) size = Number(header.readBigUInt64BE(8));
      else if (size === 0) size = bytes - offset;
      if (size < 8) throw new Error(`${file}: a box of ${size} bytes at ${offset}`);
      boxes.push({ type: header.toString('latin1', 4, 8), size });
      offset += size;
    }
    const types = boxes.map((box) => box.type);
    const moov = types.indexOf('moov');
    return {
      bytes,
      moovFirst: moov >= 0 && moov < types.indexOf('mdat'),
      moovBytes: boxes[moov]?.size ?? 0,
      boxes: types.join(' '),
    };
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The stack: the stand-in, the media in its bucket, the site

/**
 * The stand-in, in a process of its own (so that its work does not share the browser's):
 * this script again, with `--stand-in`. Its functions see `publicUrl` as SUPABASE_URL, so the
 * download function signs links on the origin the site calls (the preflight proxy).
 * @param {number} port @param {string} publicUrl
 */
async function startStandIn(port, publicUrl) {
  const url = `http://127.0.0.1:${port}`;
  const health = () =>
    fetch(`${url}/auth/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
  if (await health()) throw new Error(`port ${port} is in use (another stand-in?); set MEDIA_STANDIN_PORT`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-media-standin-'));
  const child = spawn(
    process.execPath,
    [fileURLToPath(import.meta.url), '--stand-in', String(port), dataDir, publicUrl],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise((_, reject) =>
    child.once('exit', (code) => reject(new Error(`stand-in exited (${code})`))),
  );
  const healthy = (async () => {
    while (!(await health())) await new Promise((resolve) => setTimeout(resolve, 250));
  })();
  await Promise.race([healthy, exited]);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, stop };
}

/** The `--stand-in <port> <dataDir> <publicUrl>` process: a fresh stand-in until SIGTERM. */
async function serveStandIn(/** @type {string[]} */ [port, dataDir, publicUrl]) {
  const { startServer } = await import('../../packages/supabase-stand-in/server.mjs');
  const server = await startServer({
    port: Number(port),
    host: '127.0.0.1',
    dataDir,
    reset: true,
    functionEnv: { SUPABASE_URL: String(publicUrl) },
  });
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
}

/**
 * Uploads `file` to the resources bucket as `name` through Storage's resumable (TUS) endpoint,
 * in 6 MB chunks, with the service role: how a file too large for one request reaches Storage.
 * @param {string} url @param {string} serviceKey @param {string} file @param {string} name @param {string} type
 */
export async function uploadResumable(url, serviceKey, file, name, type) {
  const size = statSync(file).size;
  const headers = { apikey: serviceKey, authorization: `Bearer ${serviceKey}`, 'tus-resumable': '1.0.0' };
  const metadata = { bucketName: 'resources', objectName: name, contentType: type, cacheControl: '3600' };
  const created = await fetch(`${url}/storage/v1/upload/resumable`, {
    method: 'POST',
    headers: {
      ...headers,
      'x-upsert': 'true',
      'upload-length': String(size),
      'upload-metadata': Object.entries(metadata)
        .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
        .join(','),
    },
  });
  if (created.status !== 201) {
    const limit =
      created.status === 413 ? ' (Storage takes 1 GiB: [storage] file_size_limit in supabase/config.toml)' : '';
    throw new Error(`upload of ${name} (${size} bytes) refused: ${created.status} ${await created.text()}${limit}`);
  }
  const location = new URL(String(created.headers.get('location')), url).href;
  const handle = await open(file);
  try {
    for (let offset = 0; offset < size;) {
      const chunk = Buffer.alloc(Math.min(TUS_CHUNK, size - offset));
      await handle.read(chunk, 0, chunk.length, offset);
      const sent = await fetch(location, {
        method: 'PATCH',
        headers: { ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: chunk,
      });
      if (sent.status !== 204) throw new Error(`upload of ${name} at ${offset}: ${sent.status} ${await sent.text()}`);
      offset = Number(sent.headers.get('upload-offset'));
    }
  } finally {
    await handle.close();
  }
}

/**
 * A new member of the accelerated tier (which opens the foundation cards too), as the e2e
 * fixtures make one: the admin API, then a staff grant of the tier. Resolves with their session,
 * as supabase-js keeps it.
 * @param {string} url @param {{ ANON_KEY: string, SERVICE_ROLE_KEY: string }} keys
 */
async function newMember(url, { ANON_KEY, SERVICE_ROLE_KEY }) {
  const admin = {
    apikey: SERVICE_ROLE_KEY,
    authorization: `Bearer ${SERVICE_ROLE_KEY}`,
    'content-type': 'application/json',
  };
  const email = `bench-media-${crypto.randomUUID()}@example.com`;
  const password = `pw-${crypto.randomUUID()}`;
  const made = await fetch(`${url}/auth/v1/admin/users`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ email, password, email_confirm: true }),
  });
  if (!made.ok) throw new Error(`createUser: ${made.status} ${await made.text()}`);
  const { id } = /** @type {{ id: string }} */ (await made.json());
  const granted = await fetch(`${url}/rest/v1/tier_grants`, {
    method: 'POST',
    headers: { ...admin, prefer: 'return=minimal' },
    body: JSON.stringify({ user_id: id, tier: 'accelerated', reason: 'bench:media' }),
  });
  if (!granted.ok) throw new Error(`tier grant: ${granted.status} ${await granted.text()}`);
  const signedIn = await fetch(`${url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!signedIn.ok) throw new Error(`sign-in: ${signedIn.status} ${await signedIn.text()}`);
  return /** @type {{ access_token: string }} */ (await signedIn.json());
}

/**
 * The download function's link for a file, asked before any browser does: the stand-in starts a
 * function's Deno process on its first call, a cost of the stand-in, not of a tap. Then asked 5
 * times more: the median is the function's own time on this machine (no network between).
 * @param {string} url @param {string} anonKey @param {string} accessToken @param {string} name
 */
async function timeTheFunction(url, anonKey, accessToken, name) {
  const ask = async () => {
    const started = performance.now();
    const answer = await fetch(`${url}/functions/v1/download?play=1&path=${encodeURIComponent(name)}`, {
      headers: { apikey: anonKey, authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    });
    if (!answer.ok) throw new Error(`the download function refused ${name}: ${answer.status} ${await answer.text()}`);
    await answer.json();
    return performance.now() - started;
  };
  await ask();
  /** @type {number[]} */
  const times = [];
  for (let i = 0; i < 5; i++) times.push(await ask());
  return median(times);
}

/** Builds the site into `outDir` against `supabaseUrl` (dist/ is left alone). */
async function buildSite(
  /** @type {string} */ supabaseUrl,
  /** @type {string} */ anonKey,
  /** @type {string} */ outDir,
) {
  const vite = path.join(root, 'node_modules/vite/bin/vite.js');
  await run(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    ...process.env,
    VITE_SUPABASE_URL: supabaseUrl,
    VITE_SUPABASE_ANON_KEY: anonKey,
  });
}

function chromiumPath() {
  const found = findChromium();
  if (found.problem) throw new Error(`CHROMIUM_PATH ${found.problem}`);
  const executable = found.executablePath ?? (found.source === 'playwright' ? playwrightHeadlessShell() : undefined);
  if (!executable) throw new Error('No Chromium found: see docs/testing.md (Chromium).');
  return executable;
}

// ---------------------------------------------------------------------------------------------
// In the browser

/**
 * Runs in the page (given to `page.evaluate`): `window.__bench`, which times one play. `arm`
 * waits for the next touch; `seek` puts the Position slider of the open player at a fraction of
 * the media's length, as a member's finger does (its input event, which the player's onChange
 * answers). From then, each frame looks at the player's element until it plays: not paused,
 * not seeking, enough data to go on (readyState 3+), and its currentTime past where it started.
 * The media events and the page's requests since the start say where the time went.
 */
function benchWatcher() {
  /** @type {{ start: number | null, plays: number | null, player: string, from: number, armed: boolean, events: Record<string, number> }} */
  const state = { start: null, plays: null, player: '', from: 0, armed: false, events: {} };
  const media = () => {
    const el = [...document.querySelectorAll('section[aria-label]')]
      .find((section) => section.getAttribute('aria-label') === `Player: ${state.player}`)
      ?.querySelector('video, audio');
    return el instanceof HTMLMediaElement ? el : null;
  };
  const watch = () => {
    const el = media();
    if (el && !el.paused && !el.seeking && el.readyState >= 3 && el.currentTime > state.from) {
      state.plays = performance.now();
    } else requestAnimationFrame(watch);
  };
  const begin = (/** @type {number} */ at) => {
    Object.assign(state, { start: at, plays: null, events: {}, armed: false });
    requestAnimationFrame(watch);
  };
  addEventListener('pointerdown', (event) => state.armed && begin(event.timeStamp), { capture: true });
  for (const type of ['loadedmetadata', 'canplay', 'playing', 'seeked']) {
    addEventListener(
      type,
      () => {
        if (state.start !== null && !(type in state.events)) state.events[type] = performance.now() - state.start;
      },
      { capture: true },
    );
  }
  /** The first request since the start whose address matches: when it was asked, and answered. */
  const since = (/** @type {RegExp} */ pattern) => {
    const entry = /** @type {PerformanceResourceTiming | undefined} */ (
      performance
        .getEntriesByType('resource')
        .find((each) => each.startTime >= (state.start ?? 0) && pattern.test(each.name))
    );
    return entry
      ? { asked: entry.startTime - (state.start ?? 0), answered: entry.responseEnd - (state.start ?? 0) }
      : { asked: null, answered: null };
  };
  Reflect.set(window, '__bench', {
    arm: (/** @type {string} */ player) => Object.assign(state, { armed: true, start: null, player, from: 0 }),
    seek: (/** @type {string} */ player, /** @type {number} */ fraction, /** @type {number} */ plus) => {
      state.player = player;
      const el = media();
      const slider = el?.closest('section')?.querySelector('input[type="range"][aria-label="Position"]');
      if (!el || !(slider instanceof HTMLInputElement)) throw new Error(`no player for ${player}`);
      const to = Math.round(el.duration * fraction) + plus;
      state.from = to;
      begin(performance.now());
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(slider, String(to));
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      return { to };
    },
    done: () => state.plays !== null,
    result: () => ({
      ms: /** @type {number} */ (state.plays) - /** @type {number} */ (state.start),
      startEpoch: performance.timeOrigin + /** @type {number} */ (state.start),
      linkAsked: since(/\/functions\/v1\/download\?play=1/).asked,
      link: since(/\/functions\/v1\/download\?play=1/).answered,
      chunk: since(/\/assets\/media-player[^/]*\.js$/).answered,
      metadata: state.events.loadedmetadata ?? null,
      playing: state.events.playing ?? null,
      seeked: state.events.seeked ?? null,
      time: media()?.currentTime ?? null,
    }),
  });
}

/**
 * The page's network as Chrome reports it on a DevTools session of the bench's own: the media
 * requests (the signed links' ranges: when each was sent, answered and how many bytes came),
 * and whether anything is moving, to let the page settle before a tap. Times are ms since the
 * epoch on the machine's clock, which the page's shares. The browser's own favicon request is
 * left out (DevTools may never see it finish).
 * @param {import('puppeteer-core').Page} page
 */
async function networkLog(page) {
  const session = await page.createCDPSession();
  await session.send('Network.enable');
  /** @type {Map<string, { media: boolean, sent: number, answered: number | null, bytes: number, open: boolean }>} */
  const requests = new Map();
  /** @type {{ at: number, bytes: number }[]} */
  const mediaData = [];
  let lastActivity = Date.now();
  session.on('Network.requestWillBeSent', ({ requestId, request }) => {
    if (request.url.endsWith('/favicon.ico')) return;
    const media = request.url.includes('/storage/v1/object/sign/');
    requests.set(requestId, { media, sent: Date.now(), answered: null, bytes: 0, open: true });
    lastActivity = Date.now();
  });
  session.on('Network.responseReceived', ({ requestId }) => {
    const entry = requests.get(requestId);
    if (entry) entry.answered = Date.now();
  });
  session.on('Network.dataReceived', ({ requestId, dataLength }) => {
    const entry = requests.get(requestId);
    if (!entry) return;
    entry.bytes += dataLength;
    lastActivity = Date.now();
    if (entry.media) mediaData.push({ at: lastActivity, bytes: dataLength });
  });
  const end = (/** @type {{ requestId: string }} */ { requestId }) => {
    const entry = requests.get(requestId);
    if (entry) entry.open = false;
    if (entry) lastActivity = Date.now();
  };
  session.on('Network.loadingFinished', end);
  session.on('Network.loadingFailed', end);
  const media = () => [...requests.values()].filter((entry) => entry.media);
  return {
    /**
     * The media requests sent from `epoch` on: the first sent, the first answered, and the
     * media bytes read from `epoch` until `end` (an earlier request's still coming count too).
     */
    since(/** @type {number} */ epoch, /** @type {number} */ end) {
      const after = media().filter((entry) => entry.sent >= epoch);
      const answers = after.map((entry) => entry.answered).filter((answered) => answered !== null);
      const read = mediaData.filter((data) => data.at >= epoch && data.at <= end);
      return {
        count: after.length,
        rangeSent: after.length ? Math.min(...after.map((entry) => entry.sent)) - epoch : null,
        firstBytes: answers.length ? Math.min(...answers) - epoch : null,
        kilobytes: read.reduce((sum, data) => sum + data.bytes, 0) / 1000,
      };
    },
    /** Media requests still open, and the bytes they brought. */
    openMedia: () => media().filter((entry) => entry.open),
    /** Resolves once no request has been sent, answered or fed for `quietMs` (at most `timeoutMs`). */
    async quiet(quietMs = 1000, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      const pending = () => [...requests.values()].some((entry) => entry.open && !entry.media);
      while (pending() || Date.now() - lastActivity < quietMs) {
        if (Date.now() > deadline) return false;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return true;
    },
  };
}

/**
 * A fresh member's phone on /resources: the viewport and touch, the CPU slowdown and `network`
 * (Chrome DevTools Protocol: Emulation.setCPUThrottlingRate, Network.emulateNetworkConditions),
 * the session in the site's storage, the page settled (its requests done), the watcher in it.
 * @param {Bench} bench @param {import('puppeteer-core').Browser} browser @param {typeof VIDEO_NETWORK} network
 * @param {string} firstTitle a Play button the page must show
 */
async function memberPage(bench, browser, network, firstTitle) {
  const session = await newMember(bench.api, bench.keys);
  const page = await browser.newPage();
  await page.setViewport(PHONE.viewport);
  await page.emulateCPUThrottling(PHONE.cpuSlowdown);
  await page.emulateNetworkConditions(network);
  await page.goto(`${bench.site}/favicon.svg`);
  await page.evaluate((key, value) => localStorage.setItem(key, value), AUTH_STORAGE_KEY, JSON.stringify(session));
  const requests = await networkLog(page);
  await page.goto(`${bench.site}/resources`, { waitUntil: 'load', timeout: 120_000 });
  await page.waitForSelector(`button[aria-label="Play ${firstTitle}"]`, { visible: true, timeout: 120_000 });
  if (!(await requests.quiet())) throw new Error('/resources never settled: its requests went on for 2 minutes');
  await page.evaluate(benchWatcher);
  return { page, requests };
}

/**
 * Waits until the watcher has seen the element play; its figures, with the media requests'.
 * @param {import('puppeteer-core').Page} page @param {Awaited<ReturnType<typeof networkLog>>} requests
 * @returns {Promise<Play & { startEpoch: number, time: number | null }>}
 */
async function played(page, requests) {
  await page.waitForFunction(() => Reflect.get(window, '__bench').done(), { timeout: 120_000, polling: 250 });
  const figures = await page.evaluate(() => Reflect.get(window, '__bench').result());
  const media = requests.since(figures.startEpoch, figures.startEpoch + figures.ms);
  const { count: mediaRequests, rangeSent, firstBytes, kilobytes } = media;
  return { ...figures, rangeSent, firstBytes, mediaRequests, kilobytes };
}

/**
 * Taps the card's Play button for `title` and times it until the element plays.
 * @param {{ page: import('puppeteer-core').Page, requests: Awaited<ReturnType<typeof networkLog>> }} phone
 * @param {string} title
 */
async function tapPlay({ page, requests }, title) {
  const button = await page.waitForSelector(`button[aria-label="Play ${title}"]`, { visible: true });
  if (!button) throw new Error(`no Play button for ${title}`);
  await button.scrollIntoView();
  await page.evaluate((player) => Reflect.get(window, '__bench').arm(player), title);
  await button.tap();
  return played(page, requests);
}

/**
 * Closes the player of `title`, then waits until the network is quiet (at most 60 s): a closed
 * player's element may go on reading its file for a while, and the next tap is timed alone.
 * @param {{ page: import('puppeteer-core').Page, requests: Awaited<ReturnType<typeof networkLog>> }} phone
 * @param {string} title
 */
async function closePlayer({ page, requests }, title) {
  await page.click(`button[aria-label="Close the player for ${title}"]`);
  const closed = Date.now();
  const bytesAt = () => requests.openMedia().reduce((sum, entry) => sum + entry.bytes, 0);
  const before = bytesAt();
  const quiet = await requests.quiet(1000, 60_000);
  const open = requests.openMedia();
  console.log(
    `[media] closed ${title}: ${quiet ? `quiet after ${Date.now() - closed} ms` : 'still busy after 60 s'}, ` +
      `${open.length} media request(s) still open, ${((bytesAt() - before) / 1e6).toFixed(1)} MB more read meanwhile`,
  );
}

/**
 * What the cases share: the browser, the site, the API for new members.
 * @typedef {{ puppeteer: typeof import('puppeteer-core'), executablePath: string, site: string,
 *   api: string, keys: { ANON_KEY: string, SERVICE_ROLE_KEY: string } }} Bench
 */

/** Runs `measure` in a fresh browser (nothing cached from the run before). @template T */
async function inFreshBrowser(
  /** @type {Bench} */ bench,
  /** @type {(b: import('puppeteer-core').Browser) => Promise<T>} */ measure,
) {
  const browser = await bench.puppeteer.launch({
    executablePath: bench.executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    return await measure(browser);
  } finally {
    await browser.close();
  }
}

/**
 * A card's first tap (cold: the player's chunk is fetched) and, after closing it, a tap on a
 * second copy of the file (warm).
 * @param {Bench} bench @param {typeof VIDEO_NETWORK} network @param {string} title
 */
function coldAndWarm(bench, network, title) {
  return inFreshBrowser(bench, async (browser) => {
    const phone = await memberPage(bench, browser, network, title);
    const cold = await tapPlay(phone, title);
    await closePlayer(phone, title);
    const warm = await tapPlay(phone, `${title} again`);
    return { cold, warm };
  });
}

/**
 * The hour-long video: its first tap; 3 s into playing, the slider to 90 %; 3 s later, to 80 %
 * and a second.
 * @param {Bench} bench
 */
function hourAndSeek(bench) {
  return inFreshBrowser(bench, async (browser) => {
    const phone = await memberPage(bench, browser, VIDEO_NETWORK, 'Bench hour');
    const tap = await tapPlay(phone, 'Bench hour');
    const seek = await seekAfter(phone, 3000, SEEK_FRACTION, 0);
    const between = await seekAfter(phone, 3000, BETWEEN_KEYFRAMES.fraction, BETWEEN_KEYFRAMES.plus);
    return { tap, seek, between };
  });
}

/**
 * Lets the video play `waitMs`, then puts the slider at `fraction` of its length plus `plus`
 * seconds, and times it until it plays from there.
 * @param {{ page: import('puppeteer-core').Page, requests: Awaited<ReturnType<typeof networkLog>> }} phone
 * @param {number} waitMs @param {number} fraction @param {number} plus
 */
async function seekAfter({ page, requests }, waitMs, fraction, plus) {
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  const { to } = await page.evaluate((f, p) => Reflect.get(window, '__bench').seek('Bench hour', f, p), fraction, plus);
  const seek = await played(page, requests);
  if ((seek.time ?? 0) < to) throw new Error(`the seek to ${to} s played at ${seek.time} s`);
  return seek;
}

// ---------------------------------------------------------------------------------------------
// The cases and the table

/**
 * The rows: a name, the budget (null: shown, not held) and which case and play it is.
 * @type {{ name: string, limit: number | null, from: (typeof CASES)[number], play: string }[]}
 */
const ROWS = [
  {
    name: '720p 2 Mbps MP4, 10 Mbps: first tap → plays (cold)',
    limit: BUDGETS.videoTapMs,
    from: 'video',
    play: 'cold',
  },
  { name: '720p 2 Mbps MP4, 10 Mbps: next tap → plays (warm)', limit: BUDGETS.videoTapMs, from: 'video', play: 'warm' },
  { name: '1 h MP4, 10 Mbps: seek to 90 % → plays', limit: BUDGETS.seekMs, from: 'hour', play: 'seek' },
  { name: '1 h MP4, 10 Mbps: seek to 80 % + 1 s → plays', limit: null, from: 'hour', play: 'between' },
  { name: '1 h MP4, 10 Mbps: first tap → plays (cold)', limit: null, from: 'hour', play: 'tap' },
  { name: 'MP3, 1.6 Mbps: first tap → plays (cold)', limit: BUDGETS.audioTapMs, from: 'audio', play: 'cold' },
  { name: 'MP3, 1.6 Mbps: next tap → plays (warm)', limit: BUDGETS.audioTapMs, from: 'audio', play: 'warm' },
];

/**
 * The cases asked for, `runs` times each (each time in a fresh browser), as rows.
 * @param {Bench} bench @param {number} runs @param {readonly (typeof CASES)[number][]} only
 * @returns {Promise<Row[]>}
 */
async function measureAll(bench, runs, only) {
  /** @type {Record<(typeof CASES)[number], () => Promise<Record<string, Play>>>} */
  const cases = {
    video: () => coldAndWarm(bench, VIDEO_NETWORK, 'Bench 720p'),
    hour: () => hourAndSeek(bench),
    audio: () => coldAndWarm(bench, AUDIO_NETWORK, 'Bench session'),
  };
  /** @type {Record<string, Play[]>} */
  const plays = {};
  for (let i = 0; i < runs; i++) {
    console.log(`[media] run ${i + 1}/${runs}`);
    for (const name of only) {
      for (const [play, figures] of Object.entries(await cases[name]())) {
        console.log(`[media] ${name} ${play}: ${Math.round(figures.ms)} ms (${describe(figures)})`);
        (plays[`${name} ${play}`] ??= []).push(figures);
      }
    }
  }
  return ROWS.filter((row) => only.includes(row.from)).map((row) => ({
    name: row.name,
    limit: row.limit,
    runs: plays[`${row.from} ${row.play}`] ?? [],
  }));
}

/** One play's milestones, in words. */
function describe(/** @type {Play} */ play) {
  const at = (/** @type {string} */ name, /** @type {number | null} */ ms) =>
    ms === null ? [] : [`${name} ${Math.round(ms)}`];
  return [
    ...at('link asked', play.linkAsked),
    ...at('link', play.link),
    ...at('chunk', play.chunk),
    ...at('range sent', play.rangeSent),
    ...at('first bytes', play.firstBytes),
    ...at('metadata', play.metadata),
    ...at('playing', play.playing),
    `${play.mediaRequests} media request(s), ${Math.round(play.kilobytes)} kB read until it played`,
  ].join(', ');
}

/** Whether a row's median is within its budget (a row without one always is). */
export function withinBudget(/** @type {Row} */ row) {
  return row.limit === null || median(row.runs.map((each) => each.ms)) <= row.limit;
}

/**
 * The table: each row's budget, median, max and runs, and the medians of where the time went.
 * @param {Row[]} rows
 */
export function formatRows(rows) {
  const ms = (/** @type {number | null} */ value) =>
    value === null || Number.isNaN(value) ? '–' : `${Math.round(value)}`;
  const medianOf = (/** @type {Row} */ row, /** @type {keyof Play} */ key) => {
    const values = row.runs.map((each) => each[key]).filter((value) => value !== null);
    return values.length ? median(/** @type {number[]} */ (values)) : null;
  };
  const body = rows.map((row) => [
    row.name,
    row.limit === null ? '–' : `≤ ${row.limit}`,
    ms(medianOf(row, 'ms')),
    ms(Math.max(...row.runs.map((each) => each.ms))),
    row.runs.map((each) => ms(each.ms)).join(', '),
    ...['linkAsked', 'link', 'chunk', 'rangeSent', 'firstBytes', 'metadata', 'playing', 'kilobytes'].map((key) =>
      ms(medianOf(row, /** @type {keyof Play} */ (key))),
    ),
    row.limit === null ? '' : withinBudget(row) ? 'ok' : 'OVER',
  ]);
  const header = [
    'measure (ms)',
    'budget',
    'median',
    'max',
    'runs',
    'link asked',
    'link',
    'chunk',
    'range sent',
    '1st bytes',
    'metadata',
    'playing',
    'kB read',
    '',
  ];
  const table = [header, ...body];
  const widths = header.map((_, i) => Math.max(...table.map((cells) => cells[i]?.length ?? 0)));
  const line = (/** @type {string[]} */ cells) =>
    `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const rule = `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`;
  return [line(header), rule, ...body.map(line)].join('\n');
}

/**
 * Starts the stack (stand-in, proxy, media uploaded, site built and served); resolves with the
 * bench's shared state and a `stop`.
 * @param {Record<string, string>} files what makeMedia made
 */
async function startStack(files) {
  const sitePort = Number(process.env.MEDIA_SITE_PORT ?? 4190);
  const standInPort = Number(process.env.MEDIA_STANDIN_PORT ?? 54350);
  const keys = await import('../../packages/supabase-stand-in/keys.mjs');
  const proxy = await startPreflightLatency({
    target: `http://127.0.0.1:${standInPort}`,
    port: 0,
    latencyMs: PHONE.latencyMs,
  });
  const standIn = await startStandIn(standInPort, proxy.url).catch((error) => {
    proxy.close();
    throw error;
  });
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'bench-media-site-'));
  /** @type {import('node:http').Server | undefined} */
  let server;
  const stop = async () => {
    server?.close();
    proxy.close();
    await standIn.stop();
    rmSync(outDir, { recursive: true, force: true });
  };
  try {
    for (const upload of UPLOADS) {
      const file = /** @type {string} */ (files[upload.file]);
      console.log(`[media] uploading ${upload.name} (${(statSync(file).size / 1e6).toFixed(1)} MB)…`);
      await uploadResumable(standIn.url, keys.SERVICE_ROLE_KEY, file, upload.name, upload.type);
    }
    const member = await newMember(proxy.url, keys);
    const functionMs = await timeTheFunction(proxy.url, keys.ANON_KEY, member.access_token, UPLOADS[0].name);
    console.log(
      `[media] the download function's link, asked from here (no network between): ${Math.round(functionMs)} ms`,
    );
    console.log(`[media] building the site against ${proxy.url} (preflights held ${PHONE.latencyMs} ms)…`);
    await buildSite(proxy.url, keys.ANON_KEY, outDir);
    server = await serveDist({ dir: outDir, port: sitePort });
    const site = `http://127.0.0.1:${sitePort}`;
    return { site, api: proxy.url, keys: { ANON_KEY: keys.ANON_KEY, SERVICE_ROLE_KEY: keys.SERVICE_ROLE_KEY }, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const mediaDir = options.mediaDir ?? mkdtempSync(path.join(os.tmpdir(), 'bench-media-files-'));
  mkdirSync(mediaDir, { recursive: true });
  try {
    const files = await makeMedia(mediaDir);
    const stack = await startStack(files);
    try {
      const puppeteer = await import('puppeteer-core');
      const executablePath = chromiumPath();
      console.log(
        `[media] serving the site at ${stack.site}; ${options.runs} run(s) of each case in ${executablePath}`,
      );
      const rows = await measureAll({ ...stack, puppeteer, executablePath }, options.runs, options.only);
      console.log(
        `\nMedians of ${options.runs}, ms from the tap (or the slider) until the element plays; phone: CPU ${PHONE.cpuSlowdown}x, ${PHONE.latencyMs} ms RTT, 10 Mbps down for video, 1.6 Mbps for audio:\n`,
      );
      console.log(formatRows(rows));
      if (!rows.every(withinBudget)) {
        console.error('\n[media] a median is over its budget');
        process.exitCode = 1;
      }
    } finally {
      await stack.stop();
    }
  } finally {
    if (!options.mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const work = process.argv[2] === '--stand-in' ? serveStandIn(process.argv.slice(3)) : main();
  work.catch((err) => {
    console.error(`[media] ${err?.stack ?? err}${err?.cause ? `\ncaused by: ${err.cause?.stack ?? err.cause}` : ''}`);
    process.exit(1);
  });
}
