// `npm run bench:staff` at a small size (2,500 members, 2 runs): the benchmark runs end to end on
// PostgreSQL 17, every staff query answers as staff, and the CSV the browser's code builds from
// keyset pages holds every member once, in the members page's order, at each size.
import { describe, expect, it } from 'vitest';
import { runStaffBench } from './bench-staff.mjs';

describe('bench:staff (small)', () => {
  it('times every staff query and exports every member once, in order, through keyset pages', async () => {
    const lines: string[] = [];
    const { results, csv, file, failures } = await runStaffBench({
      members: 2500,
      // A year of counts at 30,000 page views a month (1,080 counts a day).
      viewsPerMonth: 30_000,
      runs: 2,
      log: (line) => lines.push(line),
    });
    expect(failures).toEqual([]);
    expect(results.map((r) => r.name)).toEqual([
      'dashboard (staff_dashboard)',
      'visits, 90 days (staff_visits)',
      'visits, today (staff_visits)',
      'members page 1 (staff_list_members)',
      'members, a page at offset 2475',
      'search "maria", page 1',
      'waiting invitations (buyer_invitations)',
      'download flags',
      'download totals',
      'a member opened (staff_member_detail)',
      'members CSV, all 2500 (keyset)',
    ]);
    // The seed's 6 demo accounts and the bench's members, in 1, 2 and 3 pages of 1,000.
    expect(csv.map((c) => [c.members, c.pages])).toEqual([
      [506, 1],
      [1256, 2],
      [2506, 3],
    ]);
    const rows = file
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .slice(1, -1)
      .map((line) => line.split(','));
    expect(rows).toHaveLength(2506);
    const ids = rows.map((cells) => cells[6]);
    expect(new Set(ids).size).toBe(2506);
    const emails = rows.map((cells) => cells[0]!.toLowerCase());
    expect(emails).toEqual([...emails].sort());
    expect(lines.at(-1)).toBe('PASSED');
  }, 180_000);
});
