// The download function, as a plain `(Request) => Response` function:
//
//   GET …/download?path={tier}/{slug}/{file}
//
// The one door paid files leave by. In order: the path is checked (no empty or dot segments);
// the auth server says who the bearer is (a signed-out or expired session is 401); the database
// says whether the member's tier opens the file's folder (authorize_download: 403 above the
// tier, 404 for anything that is not a file of a tier folder); a PDF or EPUB is stamped with the
// member's e-mail once per member and file version and kept in the private stamped-downloads
// bucket (copy.ts); the download is logged (download_log: member, file, version, time, address,
// user agent); and the answer is a signed link that lives 60 seconds: a 302 to it, or, when the
// site asks with `Accept: application/json`, `{ url }` so it can show "Preparing your copy…"
// and then follow it. A refused request is never logged.
// `&play=1` asks for an audio, video or captions file to play in the page (the member's player):
// the same checks, then a link with no attachment header living PLAY_SECONDS, which a player
// reads by range requests and asks for again when it ends; the play is logged once per member,
// file and day (log_media_play), however often the player asks.
// A PDF that cannot be stamped (password-protected, not a PDF, damaged) is refused with 422 in
// words, and recorded in unstampable_files for the staff dashboard: trying again cannot help.
import type { SupabaseClient, User } from 'npm:@supabase/supabase-js@2.109.0';
import { PdfProblem } from '../_shared/pdf-update.ts';
import { resourceType } from '../_shared/resource-types.ts';
import { signedCopy, signedMedia, type Authorized } from './copy.ts';
import {
  bearer,
  callerAddress,
  CORS,
  DownloadError,
  json,
  NOT_FOUND,
  redirect,
  requestedPath,
  userAgent,
  wantsJson,
} from './http.ts';

export type LogEntry = { level: 'info' | 'warn' | 'error'; message: string } & Record<string, unknown>;

export type DownloadConfig = { supabaseUrl: string; anonKey: string; serviceRoleKey: string };

export type DownloadHandlerOptions = DownloadConfig & {
  /** A supabase-js client for `key`. */
  createClient: (key: string) => SupabaseClient;
  log?: (entry: LogEntry) => void;
  now?: () => Date;
};

/** How long the signed link lives: long enough to follow, too short to share. */
export const LINK_SECONDS = 60;

/**
 * How long a player's link lives. A player reads a file by many range requests over the time it
 * plays; when the link ends it asks for a new one and carries on from where it was.
 */
export const PLAY_SECONDS = 300;

type Env = Record<string, string | undefined>;

function required(env: Env, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new Error(`download: ${name} is not set`);
  return value;
}

/** The three values every hosted function gets from the platform. */
export function readDownloadConfig(env: Env): DownloadConfig {
  return {
    supabaseUrl: required(env, 'SUPABASE_URL'),
    anonKey: required(env, 'SUPABASE_ANON_KEY'),
    serviceRoleKey: required(env, 'SUPABASE_SERVICE_ROLE_KEY'),
  };
}

type Context = { admin: SupabaseClient; anon: SupabaseClient; now: () => Date; log: (entry: LogEntry) => void };

async function caller(ctx: Context, req: Request): Promise<User> {
  const token = bearer(req);
  const { data, error } = await ctx.anon.auth.getUser(token);
  if (error || !data.user) throw new DownloadError(401, 'not_signed_in', 'Your session has ended. Sign in again.');
  if (data.user.is_anonymous || !data.user.email) {
    throw new DownloadError(403, 'not_a_member', 'Sign in to your own account first.');
  }
  return data.user;
}

async function authorize(ctx: Context, user: User, name: string): Promise<Authorized> {
  const { data, error } = await ctx.admin.rpc('authorize_download', { p_user: user.id, p_name: name });
  if (error) throw new Error(`authorize_download: ${error.message}`);
  const answer = data as { status?: string; tier?: string; object_id?: string; version?: string; mimetype?: string };
  if (answer.status === 'forbidden') {
    throw new DownloadError(
      403,
      'above_tier',
      `This file comes with the ${answer.tier ?? 'higher'} tier, which your subscription does not include.`,
    );
  }
  if (answer.status !== 'ok' || !answer.object_id || !answer.version) throw NOT_FOUND();
  return { name, objectId: answer.object_id, version: answer.version, mimetype: answer.mimetype ?? null };
}

async function logDownload(ctx: Context, req: Request, user: User, file: Authorized): Promise<void> {
  const { error } = await ctx.admin.from('download_log').insert({
    user_id: user.id,
    object_id: file.objectId,
    file_name: file.name,
    file_version: file.version,
    ip: callerAddress(req),
    user_agent: userAgent(req),
  });
  if (error) throw new Error(`download_log: ${error.message}`);
}

/** What the member is told when their copy cannot be made from the file staff uploaded. */
export const CANNOT_PREPARE = "This file can't be prepared. We've told the team.";

/** Staff hear of it on the dashboard. A failure to record is logged; the member is refused in words either way. */
async function recordUnstampable(ctx: Context, file: Authorized, problem: PdfProblem): Promise<void> {
  ctx.log({
    level: 'warn',
    message: 'file cannot be stamped',
    file: file.name,
    version: file.version,
    reason: problem.reason,
  });
  const { error } = await ctx.admin.rpc('record_unstampable_file', {
    p_object_id: file.objectId,
    p_name: file.name,
    p_version: file.version,
    p_reason: problem.reason,
  });
  if (error)
    ctx.log({ level: 'error', message: 'record_unstampable_file failed', file: file.name, error: error.message });
}

/** The member's copy, or, for a file that cannot be stamped, a refusal in words (recorded). */
async function copyOrRefusal(ctx: Context, user: User, file: Authorized): Promise<string> {
  try {
    return await signedCopy(ctx, user, file, LINK_SECONDS);
  } catch (error) {
    if (!(error instanceof PdfProblem)) throw error;
    await recordUnstampable(ctx, file, error);
    throw new DownloadError(422, 'cannot_prepare', CANNOT_PREPARE);
  }
}

async function logPlay(ctx: Context, req: Request, user: User, file: Authorized): Promise<void> {
  const { error } = await ctx.admin.rpc('log_media_play', {
    p_user: user.id,
    p_object_id: file.objectId,
    p_name: file.name,
    p_version: file.version,
    p_ip: callerAddress(req),
    p_user_agent: userAgent(req),
  });
  if (error) throw new Error(`log_media_play: ${error.message}`);
}

/** A link for the member's player: media and captions only, logged as a play once a day. */
async function play(ctx: Context, req: Request, user: User, file: Authorized): Promise<Response> {
  const kind = resourceType(file.name)?.kind;
  if (kind !== 'audio' && kind !== 'video' && kind !== 'captions') {
    throw new DownloadError(400, 'not_playable', 'This file is not audio or video. Download it instead.');
  }
  const url = await signedMedia(ctx, file, PLAY_SECONDS);
  if (kind !== 'captions') await logPlay(ctx, req, user, file);
  return json(200, { url, expires_in: PLAY_SECONDS });
}

async function serve(ctx: Context, req: Request): Promise<Response> {
  if (req.method !== 'GET') throw new DownloadError(405, 'method_not_allowed', 'Use GET.');
  const requested = new URL(req.url);
  const name = requestedPath(requested);
  const user = await caller(ctx, req);
  const file = await authorize(ctx, user, name);
  if (requested.searchParams.get('play') === '1') return play(ctx, req, user, file);
  const url = await copyOrRefusal(ctx, user, file);
  await logDownload(ctx, req, user, file);
  return wantsJson(req) ? json(200, { url, expires_in: LINK_SECONDS }) : redirect(url);
}

export function createDownloadHandler(options: DownloadHandlerOptions): (req: Request) => Promise<Response> {
  const log = options.log ?? (() => {});
  const ctx: Context = {
    admin: options.createClient(options.serviceRoleKey),
    anon: options.createClient(options.anonKey),
    now: options.now ?? (() => new Date()),
    log,
  };

  async function answer(req: Request): Promise<Response> {
    try {
      return await serve(ctx, req);
    } catch (error) {
      if (error instanceof DownloadError) return json(error.status, { error: error.code, message: error.message });
      log({ level: 'error', message: 'download failed', error: String(error) });
      return json(500, { error: 'internal', message: 'Your copy could not be prepared. Try again in a moment.' });
    }
  }

  return async function handle(req: Request): Promise<Response> {
    if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS });
    const started = performance.now();
    const response = await answer(req);
    // The function's own time (`npm run bench:stamp` reads it): stamping, or a cached copy.
    response.headers.set('Server-Timing', `total;dur=${(performance.now() - started).toFixed(1)}`);
    return response;
  };
}
