// Stamping a paid file with its buyer: "Licensed to <e-mail> on <date>".
//
// PDF: an incremental update (../_shared/pdf-update.ts): the original bytes, unchanged, then the
// line drawn as real text (Helvetica, a standard font, so nothing is embedded) at the foot of
// page 1 as shown, page 1's object again and a new cross-reference section. Only the objects
// from the trailer to page 1 are read, so the cost follows the page tree's depth and the size of
// the cross-reference sections, not the number of pages, fonts or images. The copy is returned
// as two parts, the original and the update, so the file is held once. A PDF that cannot be
// stamped (encrypted, not a PDF, damaged cross-references) throws a PdfProblem.
// EPUB: a licence page is added to the package and put first in the spine.
// See docs/decisions/073-stamping-paid-files.md.
import { strFromU8, strToU8, unzipSync, unzlibSync, zipSync, type Zippable } from 'npm:fflate@0.8.3';
import { stampUpdate } from '../_shared/pdf-update.ts';

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

/** The stamped PDF as its parts: the original bytes, then the update that adds the line. */
export function stampPdf(bytes: Uint8Array, line: string): Uint8Array[] {
  return [bytes, stampUpdate(bytes, line, unzlibSync)];
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

/** The stamped copy as parts to send one after the other (a PDF's original and its update). */
export function stamp(kind: StampKind, bytes: Uint8Array, line: string): Uint8Array[] {
  return kind === 'pdf' ? stampPdf(bytes, line) : [stampEpub(bytes, line)];
}
