import { resourceType } from '../../../../supabase/functions/_shared/resource-types';
import { resourceFolder, type ResourceCard } from '@/content/resources';

/** The formats a card takes, as people write them: ['.pdf', '.epub'] -> ['PDF', 'EPUB']. */
export function formatNames(card: Pick<ResourceCard, 'accept'>): string[] {
  return card.accept.map((ext) => ext.replace(/^\./, '').toUpperCase());
}

/** 'Supported formats: PDF, EPUB, MOBI' (the spec's line), derived from the card. */
export function supportedFormatsText(card: Pick<ResourceCard, 'accept'>): string {
  return `Supported formats: ${formatNames(card).join(', ')}`;
}

/** The file input's accept attribute (a browser hint; `checkUploadFile` is the check). */
export function acceptAttribute(card: Pick<ResourceCard, 'accept'>): string {
  return card.accept.join(',');
}

/** The longest file name the database takes (`resource_path_tier`: at most 200 characters). */
export const MAX_FILE_NAME_LENGTH = 200;

/**
 * The characters a file name may use. Storage refuses non-ASCII and characters such as
 * `#`, `%`, `[`, `{` ("Invalid key"); this set is narrower than both storage's and the
 * database's (`resource_path_tier`: no '/', '\\' or control characters), so no name that
 * passes here is refused there.
 */
const fileNameCharacters = /^[A-Za-z0-9 ._-]+$/;

/** Why this file cannot be uploaded to this card, or null when it can. */
export function checkUploadFile(card: Pick<ResourceCard, 'accept'>, file: Pick<File, 'name'> | null): string | null {
  if (!file) return 'You must select a file to upload.';
  const name = file.name.toLowerCase();
  if (!card.accept.some((ext) => name.endsWith(ext.toLowerCase())))
    return `This resource takes ${formatNames(card).join(', ')} files only.`;
  if (file.name.startsWith('.')) return 'File names may not start with a dot.';
  if (!fileNameCharacters.test(file.name))
    return 'File names may use letters, digits, spaces, dots, hyphens and underscores only.';
  if (file.name.length > MAX_FILE_NAME_LENGTH)
    return `File name is too long (${MAX_FILE_NAME_LENGTH} characters at most).`;
  return null;
}

/**
 * The content type to send, from the file's extension (the resource types' list). Browsers
 * report `.mobi` as application/octet-stream, some `.mp3` as audio/mp3 and `.m4a` as
 * audio/x-m4a, which the bucket would refuse.
 */
export function resourceContentType(file: Pick<File, 'name' | 'type'>): string {
  return resourceType(file.name)?.contentType ?? (file.type || 'application/octet-stream');
}

/** Where the file goes in the private `resources` bucket: `{tier}/{slug}/{file name}`. */
export function resourceObjectPath(card: Pick<ResourceCard, 'tier' | 'slug'>, file: Pick<File, 'name'>): string {
  return `${resourceFolder(card)}/${file.name}`;
}

/** The storage API URL of an object, each path segment encoded. */
export function storageObjectUrl(supabaseUrl: string, bucket: string, path: string): string {
  const base = supabaseUrl.replace(/\/+$/, '');
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  return `${base}/storage/v1/object/${bucket}/${encoded}`;
}

/** The message of a failed storage response body ({ message } or { error }), else a fallback. */
export function storageErrorMessage(status: number, body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object') {
      const { message, error } = parsed as { message?: unknown; error?: unknown };
      if (typeof message === 'string' && message) return message;
      if (typeof error === 'string' && error) return error;
    }
  } catch {
    // Not JSON: fall through to the status.
  }
  return status === 0 ? 'Network error: the upload did not reach the server.' : `Upload failed with status ${status}.`;
}
