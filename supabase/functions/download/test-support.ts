// Reading a stamped copy as a reader would, for the tests (functions, stand-in, e2e): a PDF's
// text on a page (its content streams decoded and their text-showing operators read), its
// Title, Author and outline; an EPUB's spine and the pages it lists. Never imported by the
// function itself.
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  decodePDFRawStream,
} from 'pdf-lib';
import { strFromU8, unzipSync } from 'fflate';

function streamText(stream: PDFStream): string {
  const bytes = stream instanceof PDFRawStream ? decodePDFRawStream(stream).decode() : stream.getContents();
  return Array.from(bytes, (b) => String.fromCharCode(b)).join('');
}

/** The strings shown by Tj / TJ / ' / " in a content stream, in order, one line each. */
function shownStrings(content: string): string[] {
  const shown: string[] = [];
  const pattern = /<([0-9A-Fa-f\s]*)>\s*(?:Tj|'|")|\(((?:\\.|[^\\)])*)\)\s*(?:Tj|'|")/g;
  for (const match of content.matchAll(pattern)) {
    if (match[1] !== undefined) {
      const hex = match[1].replace(/\s+/g, '');
      shown.push(hex.replace(/../g, (pair) => String.fromCharCode(parseInt(pair, 16))));
    } else {
      shown.push((match[2] ?? '').replace(/\\([\\()])/g, '$1'));
    }
  }
  return shown;
}

/** The text a page shows (0-based index), one shown string per line. */
export async function pdfPageText(bytes: Uint8Array, index = 0): Promise<string> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const page = doc.getPage(index);
  const contents = page.node.Contents();
  const streams: PDFStream[] = [];
  if (contents instanceof PDFArray) {
    for (let i = 0; i < contents.size(); i += 1) streams.push(contents.lookup(i, PDFStream));
  } else if (contents instanceof PDFStream) {
    streams.push(contents);
  }
  return streams.flatMap((stream) => shownStrings(streamText(stream))).join('\n');
}

function text(value: unknown): string | null {
  return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : null;
}

/** Title, Author, page count and the outline's top-level titles. */
export async function pdfFacts(bytes: Uint8Array) {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const outline: string[] = [];
  const root = doc.catalog.lookupMaybe(PDFName.of('Outlines'), PDFDict);
  let item = root?.lookupMaybe(PDFName.of('First'), PDFDict);
  while (item && outline.length < 10_000) {
    outline.push(text(item.get(PDFName.of('Title'))) ?? '');
    const next = item.get(PDFName.of('Next'));
    item = next instanceof PDFRef ? doc.context.lookup(next, PDFDict) : undefined;
  }
  return { title: doc.getTitle() ?? null, author: doc.getAuthor() ?? null, pages: doc.getPageCount(), outline };
}

/** An EPUB's first file entry, its spine's item hrefs in order, and the text of each. */
export function epubFacts(bytes: Uint8Array) {
  const files = unzipSync(bytes);
  const first = Object.keys(files)[0];
  const container = strFromU8(files['META-INF/container.xml']!);
  const opfPath = /full-path="([^"]+)"/.exec(container)![1]!;
  const opf = strFromU8(files[opfPath]!);
  const dir = opfPath.slice(0, opfPath.lastIndexOf('/') + 1);
  const hrefs = new Map([...opf.matchAll(/<item\b[^>]*\bid="([^"]+)"[^>]*\bhref="([^"]+)"/g)].map((m) => [m[1], m[2]]));
  const spine = [...opf.matchAll(/<itemref\b[^>]*\bidref="([^"]+)"/g)].map((m) => hrefs.get(m[1]) ?? '');
  const pages = spine.map((href) => strFromU8(files[`${dir}${href}`] ?? new Uint8Array()));
  return { first, mimetype: files.mimetype ? strFromU8(files.mimetype) : null, spine, pages };
}
