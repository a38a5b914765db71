// @ts-check
// Byte ranges on object downloads, as hosted Storage serves them: its file backend answers a
// `Range: bytes=a-b` (or `a-`, or the suffix `-n`) with 206, `Content-Range: bytes a-b/size` and
// just those bytes; anything it cannot satisfy is 416 `InvalidRange` (supabase/storage
// src/storage/range.ts parseRangeHeader, src/storage/backend/file.ts getObject). Every download
// says `Accept-Ranges: bytes` (src/storage/renderer/renderer.ts setHeaders).
import { HttpError } from '../http.mjs';

/** @typedef {{ fromByte: number, toByte: number, size: number }} ByteRange */

const invalidRange = () =>
  new HttpError(416, {
    statusCode: '416',
    code: 'InvalidRange',
    error: 'invalid_range',
    message: 'invalid range provided',
  });

/**
 * The bytes a Range header asks of a file of `fileSize` bytes; throws 416 when it cannot be met.
 * @param {string} range
 * @param {number} fileSize
 * @returns {ByteRange}
 */
export function parseRange(range, fileSize) {
  const match = /^bytes=(\d*)-(\d*)$/.exec(range);
  if (!match || fileSize <= 0) throw invalidRange();
  const [, start = '', end = ''] = match;
  if (!start && !end) throw invalidRange();
  if (!start) {
    const suffix = Number(end);
    if (!Number.isSafeInteger(suffix) || suffix <= 0) throw invalidRange();
    const fromByte = Math.max(fileSize - suffix, 0);
    return { fromByte, toByte: fileSize - 1, size: fileSize - fromByte };
  }
  const fromByte = Number(start);
  const toByte = end ? Number(end) : fileSize - 1;
  const valid =
    Number.isSafeInteger(fromByte) && Number.isSafeInteger(toByte) && toByte >= fromByte && fromByte < fileSize;
  if (!valid) throw invalidRange();
  const clamped = Math.min(toByte, fileSize - 1);
  return { fromByte, toByte: clamped, size: clamped - fromByte + 1 };
}
