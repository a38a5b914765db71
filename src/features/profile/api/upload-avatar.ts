import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { avatarPath, versionedUrl } from '../lib/avatar-file';
import { profileKeys } from './get-profile';
import { saveProfile } from './save-profile';

/**
 * Uploads the picture to the public `avatars` bucket at `{user id}/avatar.{ext}`
 * (overwriting) and saves its public URL, versioned so every cache shows the new one.
 * Returns that URL. Throws on any backend error.
 */
export async function uploadAvatar(userId: string, file: File): Promise<string> {
  const path = avatarPath(userId, file);
  const bucket = supabase.storage.from('avatars');
  // The bytes, not the File: supabase-js would send a File as multipart, and Storage's policy
  // check then sees the request's length, framing included, so a picture just under the
  // bucket's 2 MB limit would be refused. Sent as the body, the length is the picture's.
  const bytes = await file.arrayBuffer();
  const { error } = await bucket.upload(path, bytes, { upsert: true, contentType: file.type, cacheControl: '3600' });
  if (error) throw error;
  const url = versionedUrl(bucket.getPublicUrl(path).data.publicUrl, Date.now());
  await saveProfile(userId, { avatar_url: url });
  return url;
}

export function useUploadAvatar(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadAvatar(userId, file),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.detail(userId) }),
  });
}
