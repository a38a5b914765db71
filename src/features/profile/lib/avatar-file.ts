/** 2 MB, the spec's limit; the `avatars` bucket enforces the same limit server-side. */
export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;

/**
 * The image types the `avatars` bucket takes, each with the extension its object gets. The
 * bucket's storage policy allows only `{user id}/avatar.{png|jpg|jpeg|webp|gif}`, so the
 * extension comes from the type, never from the file's name (`.jfif` is a JPEG too).
 */
const avatarExtensions: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** The file input's accept attribute: exactly the types the bucket takes. */
export const AVATAR_ACCEPT = Object.keys(avatarExtensions).join(',');

export type FileProblem = { title: string; description: string };

/** What to upload instead of an image type the bucket refuses. */
const allowedTypesMessage = 'Please upload a PNG, JPEG, WebP or GIF image';

/**
 * Why an avatar file is refused, or null when it is fine. The spec's two checks first (size,
 * then image/*), then the image types the bucket refuses (HEIC, SVG, AVIF, ...), in words
 * rather than the storage error.
 */
export function checkAvatarFile(file: Pick<File, 'size' | 'type'>): FileProblem | null {
  if (file.size > MAX_AVATAR_BYTES)
    return { title: 'File too large', description: 'Please upload an image smaller than 2MB' };
  if (!file.type.startsWith('image/'))
    return { title: 'Invalid file type', description: 'Please upload an image file' };
  if (!avatarExtension(file.type)) return { title: 'Invalid file type', description: allowedTypesMessage };
  return null;
}

/** The object's extension for an allowed image type, else null. */
export function avatarExtension(type: string): string | null {
  return avatarExtensions[type.toLowerCase()] ?? null;
}

/**
 * `{user id}/avatar.{ext}`: one object per user, overwritten on each upload. Call it only
 * for a file `checkAvatarFile` passed; anything else throws rather than guess a name.
 */
export function avatarPath(userId: string, file: Pick<File, 'type'>): string {
  const ext = avatarExtension(file.type);
  if (!ext) throw new Error(allowedTypesMessage);
  return `${userId}/avatar.${ext}`;
}

/** The public URL plus a version, so browsers and the menu fetch the new picture. */
export function versionedUrl(url: string, version: number): string {
  return `${url}${url.includes('?') ? '&' : '?'}v=${version}`;
}
