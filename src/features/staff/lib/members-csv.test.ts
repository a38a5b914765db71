import { describe, expect, it } from 'vitest';
import type { MemberRow } from './members';
import { csvCell, membersCsv, membersCsvFilename, toCsv } from './members-csv';

const member = (more: Partial<MemberRow> = {}): MemberRow => ({
  userId: '00000000-0000-4000-8000-000000000001',
  email: 'ann@example.com',
  tier: 'foundation',
  tierSource: 'purchase',
  purchaseCount: 2,
  createdAt: '2026-11-01T10:00:00+00:00',
  lastSignInAt: null,
  ...more,
});

describe('csvCell', () => {
  it('leaves plain text alone and empties null', () => {
    expect(csvCell('ann@example.com')).toBe('ann@example.com');
    expect(csvCell(3)).toBe('3');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
  });

  it('turns a would-be formula into text', () => {
    expect(csvCell('=HYPERLINK("http://evil.example")')).toBe('"\'=HYPERLINK(""http://evil.example"")"');
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('a=b')).toBe('a=b');
  });
});

describe('toCsv', () => {
  it('joins cells with commas and rows with CRLF, ending in CRLF', () => {
    expect(
      toCsv([
        ['a', 'b'],
        ['c,d', null],
      ]),
    ).toBe('a,b\r\n"c,d",\r\n');
  });
});

describe('membersCsv', () => {
  it('writes a BOM, the header and one row per member', () => {
    const csv = membersCsv([member(), member({ email: '=cmd@example.com', tier: null, tierSource: null })]);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'Email,Tier,Tier source,Purchases,Joined,Last sign-in,User ID',
      'ann@example.com,foundation,purchase,2,2026-11-01T10:00:00+00:00,,00000000-0000-4000-8000-000000000001',
      "'=cmd@example.com,,,2,2026-11-01T10:00:00+00:00,,00000000-0000-4000-8000-000000000001",
      '',
    ]);
  });

  it('names the file after the UTC day', () => {
    expect(membersCsvFilename(new Date('2026-11-23T23:30:00Z'))).toBe('members-2026-11-23.csv');
  });
});
