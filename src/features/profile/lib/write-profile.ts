/** One profile field to write: the only columns a user may insert or update. */
export type ProfileChange = { display_name: string | null } | { avatar_url: string };

/** The row inserted for a user who has none: id = user_id = the user's id, plus the field. */
export type ProfileInsert = { id: string; user_id: string; display_name?: string | null; avatar_url?: string };

/** What a backend call reports: an error with a Postgres code (PostgrestError), or null. */
export type StoreResult = { error: { code?: string; message: string } | null };

/** The three profile calls `writeProfile` makes; the api module backs them with supabase-js. */
export type ProfileStore = {
  /** Whether the user has a profile row; throws on a backend error. */
  exists: (userId: string) => Promise<boolean>;
  insert: (row: ProfileInsert) => Promise<StoreResult>;
  update: (userId: string, change: ProfileChange) => Promise<StoreResult>;
};

/** Postgres unique_violation: another save inserted the row between our read and insert. */
export const UNIQUE_VIOLATION = '23505';

/**
 * Writes one profile field (spec: insert when missing, else update; never an upsert, which
 * the column grants refuse). Two saves can both read "missing" (the avatar upload and Save
 * Changes, or two tabs): the later insert then hits the primary key, and is retried as the
 * update it should have been. Throws the backend error otherwise.
 */
export async function writeProfile(store: ProfileStore, userId: string, change: ProfileChange): Promise<void> {
  if (await store.exists(userId)) {
    const { error } = await store.update(userId, change);
    if (error) throw error;
    return;
  }
  const inserted = await store.insert({ id: userId, user_id: userId, ...change });
  if (!inserted.error) return;
  if (inserted.error.code !== UNIQUE_VIOLATION) throw inserted.error;
  const { error } = await store.update(userId, change);
  if (error) throw error;
}
