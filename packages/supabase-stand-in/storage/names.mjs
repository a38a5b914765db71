// @ts-check
// Bucket names, object keys and where an object's bytes live on disk (supabase/storage
// src/storage/limits.ts isValidBucketName / isValidKey), and a bucket's allowed MIME types
// (src/storage/uploader.ts validateMimeType).
import { createHash } from 'node:crypto';
import path from 'node:path';
import { storageError } from './errors.mjs';

const BUCKET_RE = /^[A-Za-z0-9_.-]{1,100}$/;
// storage-api's key alphabet; on top of it this stand-in refuses empty, '.' and '..' segments.
const KEY_RE = /^(\w|\/|!|-|\.|\*|'|\(|\)| |&|\$|@|=|;|:|\+|,|\?)*$/u;

/**
 * @param {string} bucket
 * @returns {string}
 */
export function validateBucket(bucket) {
  if (!BUCKET_RE.test(bucket) || bucket === '.' || bucket === '..')
    throw storageError(400, 'InvalidBucketName', `Bucket name invalid`);
  return bucket;
}

/**
 * @param {string} name
 * @returns {string}
 */
export function validateKey(name) {
  const bad =
    !name ||
    name.length > 1024 ||
    !KEY_RE.test(name) ||
    name.startsWith('/') ||
    name.split('/').some((seg) => seg === '' || seg === '.' || seg === '..');
  if (bad) throw storageError(400, 'InvalidKey', `Invalid key: ${name}`);
  return name;
}

/**
 * Where an object's bytes live: `<root>/<bucket>/<sha256(name)>`; never derived from raw input.
 * @param {string} root
 * @param {string} bucket
 * @param {string} name
 */
export function objectFile(root, bucket, name) {
  return path.join(root, validateBucket(bucket), createHash('sha256').update(name).digest('hex'));
}

/**
 * Whether `mime` matches a bucket's allowed list (entries may end in `/*`).
 * @param {string} mime
 * @param {string[] | null | undefined} allowed
 */
export function mimeAllowed(mime, allowed) {
  if (!allowed || allowed.length === 0) return true;
  const base = mime.split(';')[0]?.trim().toLowerCase() ?? '';
  return allowed.some((a) => {
    const rule = a.toLowerCase();
    return rule.endsWith('/*') ? base.startsWith(rule.slice(0, -1)) : base === rule;
  });
}
