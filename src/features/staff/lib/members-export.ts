/**
 * Every row of a keyset-paged list: each page is asked for after the last row of the page before
 * (null for the first), until a page comes back shorter than `pageSize`. The server orders the
 * rows and reads each page from where the last one ended, so every page costs the same and the
 * whole read grows linearly with the rows.
 */
export async function readAllPages<Row>(
  fetchPage: (after: Row | null) => Promise<readonly Row[]>,
  pageSize: number,
): Promise<Row[]> {
  const all: Row[] = [];
  let after: Row | null = null;
  for (;;) {
    const page = await fetchPage(after);
    all.push(...page);
    const last = page.at(-1);
    if (page.length < pageSize || last === undefined) return all;
    after = last;
  }
}
