// Which copy of a file a member gets. PDFs and EPUBs: their own stamped copy, made on their
// first download of that file version and kept in the private stamped-downloads bucket at
// {member}/{object}/{version}.{ext}; a replaced file has a new version, so the next download
// stamps it again. Nothing else is stamped (MP3 audio, MOBI: see
// docs/decisions/074-mobi-is-not-stamped.md) and is signed from the resources bucket as uploaded.
// An unstamped PDF or EPUB is never served: if stamping fails, the download fails (a PdfProblem
// when the file itself cannot be stamped; handler.ts tells the member and staff).
import type { SupabaseClient, User } from 'npm:@supabase/supabase-js@2.109.0';
import { PdfProblem, type PdfProblemReason } from '../_shared/pdf-update.ts';
import { licenceLine, stamp, stampKind } from './stamp.ts';

export type Authorized = { name: string; objectId: string; version: string; mimetype: string | null };

export const STAMPED_BUCKET = 'stamped-downloads';

const CONTENT_TYPES = { pdf: 'application/pdf', epub: 'application/epub+zip' } as const;

/** A version string as a safe file name part (storage versions are hex or a timestamp). */
const safe = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 100);

export function stampedPath(userId: string, file: Authorized, ext: string): string {
  return `${userId}/${file.objectId}/${safe(file.version)}.${ext}`;
}

/**
 * The original's bytes in one buffer: read from a signed link into a buffer of its declared
 * length, so the file is held once (a Blob and its arrayBuffer() would hold it twice).
 */
async function readOriginal(admin: SupabaseClient, name: string): Promise<Uint8Array> {
  const link = await sign(admin, 'resources', name, 60, null);
  if (!link) throw new Error(`resources/${name} is gone`);
  const response = await fetch(link);
  if (!response.ok || !response.body) throw new Error(`download resources/${name}: ${response.status}`);
  const declared = Number(response.headers.get('content-length'));
  if (!Number.isSafeInteger(declared) || declared < 0) return new Uint8Array(await response.arrayBuffer());
  const bytes = new Uint8Array(declared);
  let at = 0;
  const reader = response.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    if (at + chunk.value.length > declared) throw new Error(`download resources/${name}: longer than declared`);
    bytes.set(chunk.value, at);
    at += chunk.value.length;
  }
  if (at !== declared) throw new Error(`download resources/${name}: ${at} of ${declared} bytes`);
  return bytes;
}

/** Parts sent one after the other as one body, without joining them into a second copy. */
function streamOf(parts: Uint8Array[]): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream({
    pull(controller) {
      const part = parts[index++];
      if (part) controller.enqueue(part);
      else controller.close();
    },
  });
}

async function makeStamped(
  ctx: { admin: SupabaseClient; now: () => Date },
  user: User,
  file: Authorized,
  kind: 'pdf' | 'epub',
  path: string,
): Promise<void> {
  const bytes = await readOriginal(ctx.admin, file.name);
  const parts = stamp(kind, bytes, licenceLine(user.email ?? user.id, ctx.now()));
  const { error } = await ctx.admin.storage
    .from(STAMPED_BUCKET)
    .upload(path, streamOf(parts), { contentType: CONTENT_TYPES[kind], upsert: true, duplex: 'half' });
  if (error) throw new Error(`upload ${STAMPED_BUCKET}/${path}: ${error.message}`);
}

/**
 * The reason this very file version was found unstampable before (handler.ts records it), so a
 * member's next click is refused without reading the whole file again: the bytes of a version do
 * not change. A failed lookup is not a refusal: the file is read and checked as usual.
 */
async function knownProblem(admin: SupabaseClient, file: Authorized): Promise<PdfProblem | null> {
  const { data, error } = await admin
    .from('unstampable_files')
    .select('reason')
    .eq('object_id', file.objectId)
    .eq('file_version', file.version)
    .maybeSingle();
  if (error || !data) return null;
  return new PdfProblem((data as { reason: PdfProblemReason }).reason, 'found before for this version');
}

/** A link to `path` in `bucket` living `seconds`, saved as `fileName`; null when there is no such object. */
async function sign(admin: SupabaseClient, bucket: string, path: string, seconds: number, fileName: string | null) {
  const { data, error } = await admin.storage
    .from(bucket)
    .createSignedUrl(path, seconds, fileName === null ? undefined : { download: fileName });
  if (data?.signedUrl) return data.signedUrl;
  // Storage answers a missing object with 400 and "Object not found" (the stand-in too).
  if (error && /not.?found/i.test(error.message)) return null;
  throw new Error(`sign ${bucket}/${path}: ${error?.message ?? 'no url'}`);
}

/**
 * A signed link to the member's copy of the file: their stamped copy of this version (signed
 * at once when it exists, so a second download costs one signing), made first when it does
 * not; or, for what is not stamped, the file as uploaded.
 */
export async function signedCopy(
  ctx: { admin: SupabaseClient; now: () => Date },
  user: User,
  file: Authorized,
  seconds: number,
): Promise<string> {
  const fileName = file.name.slice(file.name.lastIndexOf('/') + 1);
  const kind = stampKind(file.name, file.mimetype);
  const [bucket, path] = kind ? [STAMPED_BUCKET, stampedPath(user.id, file, kind)] : ['resources', file.name];
  const cached = await sign(ctx.admin, bucket, path, seconds, fileName);
  if (cached) return cached;
  if (!kind) throw new Error(`resources/${file.name} is gone`);
  if (kind === 'pdf') {
    const known = await knownProblem(ctx.admin, file);
    if (known) throw known;
  }
  await makeStamped(ctx, user, file, kind, path);
  const made = await sign(ctx.admin, bucket, path, seconds, fileName);
  if (!made) throw new Error(`${bucket}/${path} is missing after stamping`);
  return made;
}

/** A link a player reads the file by, as uploaded (no attachment header, so it plays in the page). */
export async function signedMedia(ctx: { admin: SupabaseClient }, file: Authorized, seconds: number): Promise<string> {
  const url = await sign(ctx.admin, 'resources', file.name, seconds, null);
  if (!url) throw new Error(`resources/${file.name} is gone`);
  return url;
}
