import type { MemberRow } from './members';

/**
 * A cell a spreadsheet would run as a formula when it starts with one of these (OWASP "CSV
 * injection"): `=`, `+`, `-`, `@`, and tab / carriage return, which some spreadsheets strip
 * before looking. Such a cell is prefixed with `'`, so it opens as the text it is.
 */
const formulaStart = /^[=+\-@\t\r]/;

/** One CSV field (RFC 4180): formula-guarded, then quoted when it holds `"`, `,`, CR or LF. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (formulaStart.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of cells as CSV text: CRLF line ends (RFC 4180), including after the last row. */
export function toCsv(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export const memberCsvHeader = [
  'Email',
  'Tier',
  'Tier source',
  'Purchases',
  'Joined',
  'Last sign-in',
  'User ID',
] as const;

/**
 * The members export. A UTF-8 byte-order mark first: without it Excel reads the file as the
 * machine's legacy code page and garbles any non-ASCII address.
 */
export function membersCsv(members: readonly MemberRow[]): string {
  return (
    '\uFEFF' +
    toCsv([
      memberCsvHeader,
      ...members.map((member) => [
        member.email,
        member.tier ?? '',
        member.tierSource ?? '',
        member.purchaseCount,
        member.createdAt,
        member.lastSignInAt ?? '',
        member.userId,
      ]),
    ])
  );
}

/** `members-2026-11-23.csv`: the day of the export, in UTC like the timestamps inside. */
export function membersCsvFilename(now: Date): string {
  return `members-${now.toISOString().slice(0, 10)}.csv`;
}
