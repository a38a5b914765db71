// Stamping a paid file with its buyer: "Licensed to <e-mail> on <date>".
//
// PDF: the line is drawn as real text (Helvetica, a standard font, so nothing is embedded) at
// the foot of page 1 only; every other page, the outline (bookmarks), the document
// information (Title, Author) and the catalog are kept as they are: the document is loaded
// without touching its metadata and written back with its objects unchanged. Stamping one page
// keeps the cost flat for long books.
// EPUB: a licence page is added to the package and put first in the spine.
// See docs/decisions/073-stamping-paid-files.md.
import { PDFDocument, StandardFonts, rgb } from 'npm:pdf-lib@1.17.1';
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'npm:fflate@0.8.3';

export type StampKind = 'pdf' | 'epub';

/** Which files are stamped, by content type or extension; others are served as uploaded. */
export function stampKind(name: string, mimetype: string | null): StampKind | null {
  const type = mimetype?.split(';')[0]?.trim().toLowerCase();
  if (type === 'application/pdf' || /\.pdf$/i.test(name)) return 'pdf';
  if (type === 'application/epub+zip' || /\.epub$/i.test(name)) return 'epub';
  return null;
}

/** The line every stamped copy carries. */
export function licenceLine(email: string, at: Date): string {
  return `Licensed to ${email} on ${at.toISOString().slice(0, 10)}`;
}

/** Helvetica's WinAnsi encoding covers Latin-1; anything else in an address shows as "?". */
function winAnsi(text: string): string {
  return text.replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '?');
}

export async function stampPdf(bytes: Uint8Array, line: string): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const page = doc.getPage(0);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const text = winAnsi(line);
  const { width } = page.getSize();
  const size = Math.max(6, Math.min(9, (width - 36) / Math.max(1, font.widthOfTextAtSize(text, 1))));
  const box = page.getCropBox();
  page.drawText(text, { x: box.x + 18, y: box.y + 12, size, font, color: rgb(0.25, 0.25, 0.25) });
  // Object streams would re-compress every object of the file: written as they were instead.
  return await doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
}

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

const LICENCE_ID = 'yyc-licence';
const LICENCE_FILE = `${LICENCE_ID}.xhtml`;

function licencePage(line: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en">
<head><title>Licence</title></head>
<body><p>${escapeXml(line)}</p></body>
</html>
`;
}

/** The package document's path inside the EPUB (META-INF/container.xml's first rootfile). */
function packagePath(files: Record<string, Uint8Array>): string {
  const container = files['META-INF/container.xml'];
  const path = container && /<rootfile\b[^>]*\bfull-path\s*=\s*"([^"]+)"/.exec(strFromU8(container))?.[1];
  if (!path || !files[path]) throw new Error('Not an EPUB: no package document.');
  return path;
}

/** The package document with the licence page in the manifest and first in the spine. */
function withLicence(opf: string): string {
  const item = `<item id="${LICENCE_ID}" href="${LICENCE_FILE}" media-type="application/xhtml+xml"/>`;
  const manifest = opf.replace(/<manifest\b[^>]*>/, (open) => `${open}${item}`);
  const spine = manifest.replace(/<spine\b[^>]*>/, (open) => `${open}<itemref idref="${LICENCE_ID}"/>`);
  if (spine === manifest || manifest === opf) throw new Error('Not an EPUB: no manifest or spine.');
  return spine;
}

export function stampEpub(bytes: Uint8Array, line: string): Uint8Array {
  const files = unzipSync(bytes);
  const opfPath = packagePath(files);
  const dir = opfPath.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/') + 1) : '';
  files[opfPath] = strToU8(withLicence(strFromU8(files[opfPath]!)));
  files[`${dir}${LICENCE_FILE}`] = strToU8(licencePage(line));
  // The OCF rule: "mimetype" first and stored, then the rest.
  const out: Zippable = { mimetype: [files.mimetype ?? strToU8('application/epub+zip'), { level: 0 }] };
  for (const [name, data] of Object.entries(files)) if (name !== 'mimetype') out[name] = [data, { level: 6 }];
  return zipSync(out);
}

export async function stamp(kind: StampKind, bytes: Uint8Array, line: string): Promise<Uint8Array> {
  return kind === 'pdf' ? await stampPdf(bytes, line) : stampEpub(bytes, line);
}
