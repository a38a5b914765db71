import { describe, expect, it } from 'vitest';
import { writeProfile, type ProfileChange, type ProfileStore } from './write-profile';

type Row = { id: string; user_id: string; display_name?: string | null; avatar_url?: string };

/** An in-memory profiles table with a primary key, logging each call the way the client makes it. */
function memoryStore(initial: Row[] = []) {
  const rows = new Map(initial.map((row) => [row.id, row]));
  const calls: string[] = [];
  const store: ProfileStore = {
    exists: async (userId) => {
      calls.push('exists');
      return [...rows.values()].some((row) => row.user_id === userId);
    },
    insert: async (row) => {
      calls.push('insert');
      if (rows.has(row.id))
        return {
          error: { code: '23505', message: 'duplicate key value violates unique constraint "profiles_pkey"' },
        };
      rows.set(row.id, { ...row });
      return { error: null };
    },
    update: async (userId, change) => {
      calls.push('update');
      for (const [id, row] of rows) if (row.user_id === userId) rows.set(id, { ...row, ...change });
      return { error: null };
    },
  };
  return { store, rows, calls };
}

describe('writeProfile', () => {
  it('inserts the row (id = user id) when the user has none', async () => {
    const { store, rows, calls } = memoryStore();
    await writeProfile(store, 'u1', { display_name: 'Grace' });
    expect(rows.get('u1')).toEqual({ id: 'u1', user_id: 'u1', display_name: 'Grace' });
    expect(calls).toEqual(['exists', 'insert']);
  });

  it('updates an existing row', async () => {
    const { store, rows, calls } = memoryStore([{ id: 'u1', user_id: 'u1', display_name: 'Grace' }]);
    await writeProfile(store, 'u1', { avatar_url: 'https://cdn.test/u1/avatar.png?v=1' });
    expect(rows.get('u1')).toEqual({
      id: 'u1',
      user_id: 'u1',
      display_name: 'Grace',
      avatar_url: 'https://cdn.test/u1/avatar.png?v=1',
    });
    expect(calls).toEqual(['exists', 'update']);
  });

  it('retries as an update when another save inserted the row first (23505)', async () => {
    const { store, rows, calls } = memoryStore();
    // Both saves read "missing" before either inserts, as an avatar upload and Save Changes can.
    await Promise.all([
      writeProfile(store, 'u1', { avatar_url: 'https://cdn.test/u1/avatar.png?v=1' }),
      writeProfile(store, 'u1', { display_name: 'Grace' }),
    ]);
    expect(calls).toEqual(['exists', 'exists', 'insert', 'insert', 'update']);
    expect(rows.get('u1')).toEqual({
      id: 'u1',
      user_id: 'u1',
      avatar_url: 'https://cdn.test/u1/avatar.png?v=1',
      display_name: 'Grace',
    });
  });

  it('throws any other insert error without retrying', async () => {
    const { store, calls } = memoryStore();
    const refused: ProfileStore = {
      ...store,
      insert: async () => ({
        error: { code: '23514', message: 'new row violates check constraint "profiles_display_name_check"' },
      }),
    };
    await expect(writeProfile(refused, 'u1', { display_name: 'x'.repeat(81) })).rejects.toMatchObject({
      message: 'new row violates check constraint "profiles_display_name_check"',
    });
    expect(calls).toEqual(['exists']);
  });

  it('throws the update error, also on the retry', async () => {
    const change: ProfileChange = { display_name: 'Grace' };
    const denied = { error: { code: '42501', message: 'permission denied for table profiles' } };
    const existing = memoryStore([{ id: 'u1', user_id: 'u1' }]);
    await expect(writeProfile({ ...existing.store, update: async () => denied }, 'u1', change)).rejects.toMatchObject({
      message: 'permission denied for table profiles',
    });

    const racing = memoryStore([{ id: 'u1', user_id: 'u1' }]);
    const raced: ProfileStore = { ...racing.store, exists: async () => false, update: async () => denied };
    await expect(writeProfile(raced, 'u1', change)).rejects.toMatchObject({
      message: 'permission denied for table profiles',
    });
  });

  it('propagates a failed read', async () => {
    const { store } = memoryStore();
    const offline: ProfileStore = { ...store, exists: () => Promise.reject(new Error('Failed to fetch')) };
    await expect(writeProfile(offline, 'u1', { display_name: 'Grace' })).rejects.toThrow('Failed to fetch');
  });
});
