// Paid files made at run time for the stamping tests and `npm run bench:stamp`: a PDF of any
// page count and size, with a Title, an Author and an outline (one bookmark per chapter), and a
// small EPUB 3. Nothing big is committed.
import {
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFString,
  StandardFonts,
  drawObject,
  popGraphicsState,
  pushGraphicsState,
  scale,
  type PDFRef,
} from 'pdf-lib';
import { strToU8, zipSync } from 'fflate';

export type PdfFixture = { pages: number; bytes: number; title?: string; author?: string; chapters?: number };

/** Deterministic filler (xorshift), so a page's picture does not compress away. */
function filler(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed * 2654435761 || 1;
  for (let i = 0; i < length; i += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** The outline: one bookmark per chapter, each opening its first page. */
function addOutline(doc: PDFDocument, titles: readonly string[], pageRefs: readonly PDFRef[]) {
  const { context } = doc;
  const outlineRef = context.nextRef();
  const itemRefs = titles.map(() => context.nextRef());
  titles.forEach((title, i) => {
    const page = pageRefs[Math.floor((i * pageRefs.length) / titles.length)]!;
    const item = context.obj({ Title: PDFString.of(title), Parent: outlineRef, Dest: [page, PDFName.of('Fit')] });
    if (i > 0) item.set(PDFName.of('Prev'), itemRefs[i - 1]!);
    if (i < titles.length - 1) item.set(PDFName.of('Next'), itemRefs[i + 1]!);
    context.assign(itemRefs[i]!, item);
  });
  const outline = context.obj({ Type: 'Outlines', Count: PDFNumber.of(titles.length) });
  outline.set(PDFName.of('First'), itemRefs[0]!);
  outline.set(PDFName.of('Last'), itemRefs[itemRefs.length - 1]!);
  context.assign(outlineRef, outline);
  doc.catalog.set(PDFName.of('Outlines'), outlineRef);
}

export function chapterTitles(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `Chapter ${i + 1}`);
}

export async function makePdf(spec: PdfFixture): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(spec.title ?? 'Write Your Book');
  doc.setAuthor(spec.author ?? 'Yes, You Can!');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const side = Math.max(1, Math.floor(Math.sqrt(Math.max(0, spec.bytes - 2000 * spec.pages) / spec.pages)));
  const pageRefs: PDFRef[] = [];
  for (let i = 0; i < spec.pages; i += 1) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Page ${i + 1}`, { x: 72, y: 770, size: 22, font });
    const picture = doc.context.register(
      doc.context.stream(filler(side * side, i + 1), {
        Type: 'XObject',
        Subtype: 'Image',
        Width: side,
        Height: side,
        ColorSpace: 'DeviceGray',
        BitsPerComponent: 8,
      }),
    );
    const name = page.node.newXObject('Im', picture);
    page.pushOperators(pushGraphicsState(), scale(300, 300), drawObject(name), popGraphicsState());
    pageRefs.push(page.ref);
  }
  addOutline(doc, chapterTitles(spec.chapters ?? Math.min(12, spec.pages)), pageRefs);
  return await doc.save({ useObjectStreams: false });
}

const CONTAINER = `<?xml version="1.0" encoding="utf-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>
`;

function packageDocument(chapters: number): string {
  const ids = Array.from({ length: chapters }, (_, i) => `ch${i + 1}`);
  return `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="id">urn:uuid:7d1c6d2e-0000-4000-8000-000000000001</dc:identifier>
    <dc:title>Write Your Book</dc:title><dc:language>en</dc:language>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
${ids.map((id) => `    <item id="${id}" href="${id}.xhtml" media-type="application/xhtml+xml"/>`).join('\n')}
  </manifest>
  <spine>
${ids.map((id) => `    <itemref idref="${id}"/>`).join('\n')}
  </spine>
</package>
`;
}

const xhtml = (title: string, body: string) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title></head><body>${body}</body></html>\n`;

export function makeEpub(chapters = 3): Uint8Array {
  const files: Record<string, [Uint8Array, { level: 0 | 6 }]> = {
    mimetype: [strToU8('application/epub+zip'), { level: 0 }],
    'META-INF/container.xml': [strToU8(CONTAINER), { level: 6 }],
    'OEBPS/content.opf': [strToU8(packageDocument(chapters)), { level: 6 }],
    'OEBPS/nav.xhtml': [strToU8(xhtml('Contents', '<nav epub:type="toc"><ol></ol></nav>')), { level: 6 }],
  };
  for (let i = 1; i <= chapters; i += 1) {
    files[`OEBPS/ch${i}.xhtml`] = [strToU8(xhtml(`Chapter ${i}`, `<h1>Chapter ${i}</h1><p>Text.</p>`)), { level: 6 }];
  }
  return zipSync(files);
}
