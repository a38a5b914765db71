// @ts-check
// POST /object/list/:bucket (supabase/storage src/http/routes/object/listObjects.ts, the
// storage.search function's answer): the objects and folders one level under a prefix, read as
// the caller, filtered by a name prefix, sorted and paged.
import { asCaller, bucketOr404, fieldsOf, OPERATIONS } from './context.mjs';

/** @typedef {import('@supabase/storage-js').FileObject} FileObject */
/** @typedef {import('@supabase/storage-js').FileMetadata} FileMetadata */

const SORT_COLUMNS = ['name', 'updated_at', 'created_at', 'last_accessed_at'];

/**
 * @typedef {{ id: string, name: string, updated_at: Date | string | null, created_at: Date | string | null,
 *   last_accessed_at: Date | string | null, metadata: Record<string, unknown> | null }} ListedRow
 */

/** @param {Date | string | null} v */
const iso = (v) => (v ? new Date(v).toISOString() : null);

/**
 * The request's prefix (ending in `/`), search, page and order.
 * @param {unknown} body
 */
function listOptions(body) {
  const b = fieldsOf(body);
  let prefix = typeof b.prefix === 'string' ? b.prefix : '';
  if (prefix && !prefix.endsWith('/')) prefix += '/';
  const column = SORT_COLUMNS.includes(b.sortBy?.column) ? /** @type {keyof FileObject} */ (b.sortBy.column) : 'name';
  return {
    prefix,
    search: typeof b.search === 'string' ? b.search : '',
    limit: Math.max(0, Math.min(1000, Number(b.limit ?? 100) || 100)),
    offset: Math.max(0, Number(b.offset ?? 0) || 0),
    column,
    order: String(b.sortBy?.order ?? 'asc').toLowerCase() === 'desc' ? -1 : 1,
  };
}

/**
 * One entry per file directly under the prefix and one per folder, as storage.search answers.
 * @param {ListedRow[]} rows
 * @param {string} prefix
 * @param {string} search
 * @returns {FileObject[]}
 */
function entriesOf(rows, prefix, search) {
  /** @type {Map<string, FileObject>} */
  const entries = new Map();
  for (const row of rows) {
    const rest = row.name.slice(prefix.length);
    const slash = rest.indexOf('/');
    const name = slash >= 0 ? rest.slice(0, slash) : rest;
    if (!name.toLowerCase().startsWith(search.toLowerCase())) continue;
    if (slash >= 0) {
      if (!entries.has(`d:${name}`)) {
        /** @type {FileObject} */
        const folder = { name, id: null, updated_at: null, created_at: null, last_accessed_at: null, metadata: null };
        entries.set(`d:${name}`, folder);
      }
    } else {
      /** @type {FileObject} */
      const file = {
        name,
        id: row.id,
        updated_at: iso(row.updated_at),
        created_at: iso(row.created_at),
        last_accessed_at: iso(row.last_accessed_at),
        metadata: /** @type {FileMetadata | null} */ (row.metadata),
      };
      entries.set(`f:${name}`, file);
    }
  }
  return [...entries.values()];
}

/**
 * @param {import('./context.mjs').StorageContext} ctx
 * @param {import('./context.mjs').Claims} claims
 * @param {string} bucketId
 * @param {unknown} body
 * @returns {Promise<FileObject[]>}
 */
export async function list(ctx, claims, bucketId, body) {
  await bucketOr404(ctx, bucketId);
  const { prefix, search, limit, offset, column, order } = listOptions(body);
  const rows = await asCaller(ctx, claims, OPERATIONS.list, async (tx) => {
    const r = await tx.query(
      `select id, name, updated_at, created_at, last_accessed_at, metadata from storage.objects
        where bucket_id = $1 and left(name, length($2)) = $2`,
      [bucketId, prefix],
    );
    return /** @type {ListedRow[]} */ (r.rows);
  });
  const sorted = entriesOf(rows, prefix, search).sort((x, y) => {
    const a = x[column] ?? '';
    const c = y[column] ?? '';
    if (a === c) return x.name < y.name ? -1 : x.name > y.name ? 1 : 0;
    return (a < c ? -1 : 1) * order;
  });
  return sorted.slice(offset, offset + limit);
}
