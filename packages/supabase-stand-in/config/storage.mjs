// @ts-check
// The storage settings the stand-in takes from supabase/config.toml: the global upload limit,
// `[storage] file_size_limit`, read as the Supabase CLI reads it (apps/cli-go/pkg/config
// config.go sizeInBytes, storage.go). It is the limit `supabase config push` sets on the hosted
// project (storage.go ToUpdateStorageConfigBody), and `supabase start` passes it to the storage
// container as FILE_SIZE_LIMIT (internal/start/start.go).
import { repoToml, tableAt } from './toml.mjs';

/** The CLI's default (pkg/config/templates/config.toml `file_size_limit = "50MiB"`), hosted Free's cap. */
export const DEFAULT_FILE_SIZE_LIMIT = 50 * 1024 * 1024;

/** docker/go-units v0.5.0 binaryMap: RAMInBytes reads every prefix as a power of 1024, "MB" too. */
const BINARY = /** @type {Readonly<Record<string, number>>} */ ({
  k: 1024,
  m: 1024 ** 2,
  g: 1024 ** 3,
  t: 1024 ** 4,
  p: 1024 ** 5,
});

/**
 * strconv.ParseFloat of the decimal forms (sign, digits, point, exponent), or null. Go also
 * takes hexadecimal floats, "Inf" and "NaN", which no size needs: refused here.
 * @param {string} text
 */
function parseDecimal(text) {
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : null;
}

/**
 * docker/go-units v0.5.0 RAMInBytes (size.go parseSize with the binary map), which the CLI's
 * sizeInBytes.UnmarshalText calls: a number, an optional space, then a suffix of up to three
 * letters, case-insensitive: `b`, or `k`/`m`/`g`/`t`/`p` alone or followed by `b` or `ib`
 * ("5MB" and "5MiB" are both 5 × 1024²). The bytes, truncated to a whole number, or null.
 * @param {string} text
 * @returns {number | null}
 */
export function ramInBytes(text) {
  const sep = Math.max(...[...'0123456789. '].map((ch) => text.lastIndexOf(ch)));
  if (sep === -1) return null;
  const num = text[sep] === ' ' ? text.slice(0, sep) : text.slice(0, sep + 1);
  const suffix = text.slice(sep + 1).toLowerCase();
  const size = parseDecimal(num);
  if (size === null || size < 0) return null;
  if (suffix === '' || suffix === 'b') return Math.trunc(size);
  const multiplier = BINARY[suffix[0] ?? ''];
  if (multiplier === undefined || suffix.length > 3) return null;
  if (suffix.length === 2 && suffix[1] !== 'b') return null;
  if (suffix.length === 3 && suffix.slice(1) !== 'ib') return null;
  return Math.trunc(size * multiplier);
}

/**
 * A config.toml size (the CLI's sizeInBytes): a TOML number is bytes, a string is read by
 * ramInBytes. Anything else, or a size the CLI would refuse, is an error.
 * @param {unknown} value
 * @param {string} what the key, for the error
 */
export function sizeInBytes(value, what) {
  const bytes = typeof value === 'number' ? Math.trunc(value) : typeof value === 'string' ? ramInBytes(value) : null;
  if (bytes === null || !Number.isSafeInteger(bytes) || bytes < 0)
    throw new Error(`config.toml ${what}: not a size ("50MiB", "1GiB" or a number of bytes)`);
  return bytes;
}

/**
 * @typedef {{ fileSizeLimit: number }} StorageSettings
 *   fileSizeLimit: [storage] file_size_limit in bytes, the most any upload may hold whatever its
 *   bucket allows (storage-api's uploadFileSizeLimit).
 */

/**
 * @param {import('./toml.mjs').TomlTable} parsed
 * @returns {StorageSettings}
 */
export function readStorageSettings(parsed) {
  const limit = tableAt(parsed, 'storage').file_size_limit;
  return Object.freeze({
    fileSizeLimit: limit === undefined ? DEFAULT_FILE_SIZE_LIMIT : sizeInBytes(limit, '[storage] file_size_limit'),
  });
}

/** The repo's: supabase/config.toml read once. */
export const STORAGE_SETTINGS = readStorageSettings(repoToml());
