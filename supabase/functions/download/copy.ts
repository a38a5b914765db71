// Which copy of a file a member gets. PDFs and EPUBs: their own stamped copy, made on their
// first download of that file version and kept in the private stamped-downloads bucket at
// {member}/{object}/{version}.{ext}; a replaced file has a new version, so the next download
// stamps it again. Nothing else is stamped (MP3 audio, MOBI: see
// docs/decisions/074-mobi-is-not-stamped.md) and is signed from the resources bucket as uploaded.
// An unstamped PDF or EPUB is never served: if stamping fails, the download fails.
import type { SupabaseClient, User } from 'npm:@supabase/supabase-js@2.109.0';
import { licenceLine, stamp, stampKind } from './stamp.ts';

export type Authorized = { name: string; objectId: string; version: string; mimetype: string | null };

export type Copy = { bucket: string; path: string; fileName: string };

export const STAMPED_BUCKET = 'stamped-downloads';

const CONTENT_TYPES = { pdf: 'application/pdf', epub: 'application/epub+zip' } as const;

/** A version string as a safe file name part (storage versions are hex or a timestamp). */
const safe = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 100);

export function stampedPath(userId: string, file: Authorized, ext: string): string {
  return `${userId}/${file.objectId}/${safe(file.version)}.${ext}`;
}

async function exists(admin: SupabaseClient, path: string): Promise<boolean> {
  const slash = path.lastIndexOf('/');
  const { data, error } = await admin.storage
    .from(STAMPED_BUCKET)
    .list(path.slice(0, slash), { search: path.slice(slash + 1), limit: 1 });
  if (error) throw new Error(`list ${STAMPED_BUCKET}: ${error.message}`);
  return data.some((entry) => entry.name === path.slice(slash + 1));
}

async function makeStamped(
  ctx: { admin: SupabaseClient; now: () => Date },
  user: User,
  file: Authorized,
  kind: 'pdf' | 'epub',
  path: string,
): Promise<void> {
  const original = await ctx.admin.storage.from('resources').download(file.name);
  if (original.error) throw new Error(`download resources/${file.name}: ${original.error.message}`);
  const bytes = new Uint8Array(await original.data.arrayBuffer());
  const stamped = await stamp(kind, bytes, licenceLine(user.email ?? user.id, ctx.now()));
  const { error } = await ctx.admin.storage
    .from(STAMPED_BUCKET)
    .upload(path, stamped, { contentType: CONTENT_TYPES[kind], upsert: true });
  if (error) throw new Error(`upload ${STAMPED_BUCKET}/${path}: ${error.message}`);
}

export async function deliverableCopy(
  ctx: { admin: SupabaseClient; now: () => Date },
  user: User,
  file: Authorized,
): Promise<Copy> {
  const fileName = file.name.slice(file.name.lastIndexOf('/') + 1);
  const kind = stampKind(file.name, file.mimetype);
  if (!kind) return { bucket: 'resources', path: file.name, fileName };
  const path = stampedPath(user.id, file, kind);
  if (!(await exists(ctx.admin, path))) await makeStamped(ctx, user, file, kind, path);
  return { bucket: STAMPED_BUCKET, path, fileName };
}
