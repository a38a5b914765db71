/** 2 MB, the spec's limit; the `avatars` bucket enforces the same limit server-side. */
export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;

export type FileProblem = { title: string; description: string };

/** Why an avatar file is refused (spec section 5), or null when it is fine. */
export function checkAvatarFile(file: Pick<File, 'size' | 'type'>): FileProblem | null {
  if (file.size > MAX_AVATAR_BYTES)
    return { title: 'File too large', description: 'Please upload an image smaller than 2MB' };
  if (!file.type.startsWith('image/'))
    return { title: 'Invalid file type', description: 'Please upload an image file' };
  return null;
}

/** `{user id}/avatar.{ext}`: one object per user, overwritten on each upload. */
export function avatarPath(userId: string, file: Pick<File, 'name' | 'type'>): string {
  const fromName = /\.([a-z0-9]{1,8})$/i.exec(file.name)?.[1];
  const fromType = /^image\/([a-z0-9]+)/i.exec(file.type)?.[1];
  const ext = (fromName ?? fromType ?? 'png').toLowerCase();
  return `${userId}/avatar.${ext}`;
}

/** The public URL plus a version, so browsers and the menu fetch the new picture. */
export function versionedUrl(url: string, version: number): string {
  return `${url}${url.includes('?') ? '&' : '?'}v=${version}`;
}
