import { describe, expect, it } from 'vitest';
import { readAllPages } from './members-export';

type Row = { key: string };

/** A keyset-paged list: each page holds up to `size` rows after the given row. */
function pagedList(keys: string[], size: number) {
  const asked: (string | null)[] = [];
  const fetchPage = async (after: Row | null) => {
    asked.push(after?.key ?? null);
    const start = after ? keys.indexOf(after.key) + 1 : 0;
    return keys.slice(start, start + size).map((key) => ({ key }));
  };
  return { asked, fetchPage };
}

const keys = (n: number) => Array.from({ length: n }, (_, i) => `m${String(i).padStart(3, '0')}`);

describe('readAllPages', () => {
  it('reads every row once, in order, each page after the last row of the one before', async () => {
    const list = pagedList(keys(7), 3);
    const rows = await readAllPages(list.fetchPage, 3);
    expect(rows.map((r) => r.key)).toEqual(keys(7));
    expect(list.asked).toEqual([null, 'm002', 'm005']);
  });

  it('stops at a short page without asking again', async () => {
    const list = pagedList(keys(2), 3);
    expect(await readAllPages(list.fetchPage, 3)).toHaveLength(2);
    expect(list.asked).toEqual([null]);
  });

  it('asks once more after a full last page, and stops at the empty one', async () => {
    const list = pagedList(keys(6), 3);
    expect(await readAllPages(list.fetchPage, 3)).toHaveLength(6);
    expect(list.asked).toEqual([null, 'm002', 'm005']);
  });

  it('answers no rows for an empty list', async () => {
    const list = pagedList([], 3);
    expect(await readAllPages(list.fetchPage, 3)).toEqual([]);
    expect(list.asked).toEqual([null]);
  });

  it('fails when a page fails', async () => {
    let calls = 0;
    const failing = async (after: Row | null) => {
      calls += 1;
      if (after) throw new Error('page 2 failed');
      return keys(3).map((key) => ({ key }));
    };
    await expect(readAllPages(failing, 3)).rejects.toThrow('page 2 failed');
    expect(calls).toBe(2);
  });
});
