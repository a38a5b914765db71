// Reading a stamped copy as a reader would, for the tests (functions, stand-in, e2e): a PDF's
// text on a page (its content streams decoded and their text-showing operators read), its
// Title, Author and outline; an EPUB's spine and the pages it lists. Never imported by the
// function itself.
//
// A second reader, pdf.js (pdfjs-dist's legacy build, loaded only when used): a real viewer's
// parser, which reads an incremental update the way viewers do (cross-reference chain, object
// streams, inherited page attributes) and shows where a line sits on the page as displayed.
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
import { strFromU8, unzipSync, unzlibSync } from 'fflate';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

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

// --- pdf.js ------------------------------------------------------------------------------

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;
const loadPdfJs = () => (pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

/** LiberationSans-Regular.ttf from pdfjs-dist's standard fonts: the font book-fixtures.ts embeds. */
export function liberationSans(): Uint8Array {
  const dir = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  return new Uint8Array(readFileSync(path.join(dir, 'standard_fonts', 'LiberationSans-Regular.ttf')));
}

/** Opens `bytes` in pdf.js (a copy: pdf.js takes the buffer it is given); the caller destroys it. */
export async function openInPdfJs(bytes: Uint8Array, verbosity = 0) {
  const { getDocument } = await loadPdfJs();
  return await getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity,
  }).promise;
}

/**
 * Runs `read` with pdf.js's warnings caught instead of printed (pdf.js writes them with
 * console.warn). A reader's warnings say what it had to repair: "Indexing all PDF objects" is
 * pdf.js rebuilding a cross-reference table it could not use, which it does silently otherwise.
 */
async function catchingWarnings<T>(read: () => Promise<T>): Promise<{ value: T; warnings: string[] }> {
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    const text = args.map(String).join(' ');
    if (text.startsWith('Warning: ')) warnings.push(text.slice(9));
    else warn(...args);
  };
  try {
    return { value: await read(), warnings };
  } finally {
    console.warn = warn;
  }
}

type Doc = Awaited<ReturnType<typeof openInPdfJs>>;
export type OutlineTitles = { title: string; items: OutlineTitles }[];

type OutlineItem = { title: string; items: OutlineItem[] };
const outlineTitles = (items: OutlineItem[] | null): OutlineTitles =>
  (items ?? []).map((item) => ({ title: item.title, items: outlineTitles(item.items) }));

type TextPiece = { str: string; transform: number[]; width: number };
async function pageItems(doc: Doc, pageNumber: number): Promise<TextPiece[]> {
  const page = await doc.getPage(pageNumber);
  const content = await page.getTextContent();
  return content.items.filter((item): item is TextPiece & (typeof content.items)[number] => 'str' in item);
}

/**
 * What pdf.js reads: page count, Title, Author, the outline's titles (nested), page 1's text,
 * and the warnings it gave while reading them.
 */
export async function pdfJsFacts(bytes: Uint8Array) {
  const { value, warnings } = await catchingWarnings(async () => {
    const doc = await openInPdfJs(bytes, 1);
    try {
      const meta = await doc.getMetadata();
      const info = meta.info as { Title?: string; Author?: string };
      const outline = outlineTitles((await doc.getOutline()) as OutlineItem[] | null);
      const page1Text = (await pageItems(doc, 1)).map((item) => item.str).join('');
      return { pages: doc.numPages, title: info.Title ?? null, author: info.Author ?? null, outline, page1Text };
    } finally {
      await doc.destroy();
    }
  });
  return { ...value, warnings };
}

/** Where `stamped` first differs from `original` (-1 when `original` is a prefix of it). */
function firstDifference(original: Uint8Array, stamped: Uint8Array): number {
  const n = Math.min(original.length, stamped.length);
  for (let i = 0; i < n; i += 1) if (original[i] !== stamped[i]) return i;
  return stamped.length < original.length ? n : -1;
}

/**
 * The second reader's verdict on a stamped copy; throws one error listing every problem: the
 * copy must start with the original's bytes unchanged (an incremental update only appends),
 * open in pdf.js with the same page count, carry `line` in page 1's text, and keep the
 * outline (every title, nested) and the document information (Title, Author); pdf.js must
 * give no warning on the copy that it did not give on the original (other than about fonts),
 * so a cross-reference section it had to rebuild does not pass unseen.
 */
export async function secondReaderCheck(original: Uint8Array, stamped: Uint8Array, line: string): Promise<void> {
  const problems: string[] = [];
  const differs = firstDifference(original, stamped);
  if (differs >= 0)
    problems.push(
      `the stamped copy does not start with the original's ${original.length} bytes (first difference at byte ${differs})`,
    );
  else if (stamped.length === original.length) problems.push('the stamped copy has nothing appended');
  const before = await pdfJsFacts(original);
  let after: Awaited<ReturnType<typeof pdfJsFacts>>;
  try {
    after = await pdfJsFacts(stamped);
  } catch (error) {
    problems.push(
      `pdf.js cannot open the stamped copy: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
    );
    throw new Error(`second reader (pdf.js): ${problems.join('; ')}`);
  }
  if (after.pages !== before.pages) problems.push(`${after.pages} pages, the original has ${before.pages}`);
  if (!after.page1Text.includes(line))
    problems.push(
      `page 1's text does not contain ${JSON.stringify(line)} (it ends ${JSON.stringify(after.page1Text.slice(-160))})`,
    );
  if (JSON.stringify(after.outline) !== JSON.stringify(before.outline)) {
    problems.push(
      `the outline changed: ${JSON.stringify(after.outline).slice(0, 300)} instead of ${JSON.stringify(before.outline).slice(0, 300)}`,
    );
  }
  if (after.title !== before.title)
    problems.push(`Title ${JSON.stringify(after.title)} instead of ${JSON.stringify(before.title)}`);
  if (after.author !== before.author)
    problems.push(`Author ${JSON.stringify(after.author)} instead of ${JSON.stringify(before.author)}`);
  const repairs = after.warnings.filter((w) => !before.warnings.includes(w) && !/font/i.test(w));
  if (repairs.length > 0) problems.push(`pdf.js warned reading the copy (not the original): ${repairs.join(' | ')}`);
  if (problems.length > 0) throw new Error(`second reader (pdf.js): ${problems.join('; ')}`);
}

/**
 * Where `line` sits on page 1 as a viewer shows it (pdf.js's viewport at scale 1, which applies
 * /Rotate and the CropBox; y grows downwards, 0 at the top): its baseline's start (x, y), its
 * font size and width as shown, whether it reads left to right upright (the text's x axis
 * points right, its y axis up the screen, neither skewed), whether it lies in the bottom 10 %
 * of the shown page, and whether it fits across the page. Throws when pdf.js finds no such text.
 */
export async function upright(stamped: Uint8Array, line: string) {
  const { Util } = await loadPdfJs();
  const doc = await openInPdfJs(stamped);
  try {
    const page = await doc.getPage(1);
    const viewport = page.getViewport({ scale: 1 });
    const items = await pageItems(doc, 1);
    const item =
      items.find((i) => i.str.includes(line)) ?? items.find((i) => i.str.length >= 8 && line.startsWith(i.str));
    if (!item) throw new Error(`no text item on page 1 carries ${JSON.stringify(line)}`);
    const [a, b, c, d, e, f] = Util.transform(viewport.transform, item.transform) as number[];
    const size = Math.hypot(c!, d!);
    const tilt = 0.01 * Math.max(Math.abs(a!), Math.abs(d!));
    // Canvas coordinates: y points down, so text standing up has its y axis at -y (d < 0).
    const isUpright = a! > 0 && -d! > 0 && Math.abs(b!) <= tilt && Math.abs(c!) <= tilt;
    // pdf.js gives an item's width in page units along the text; the viewport (scale 1) keeps lengths.
    const shownWidth = item.width;
    return {
      x: e!,
      y: f!,
      size,
      width: shownWidth,
      pageWidth: viewport.width,
      pageHeight: viewport.height,
      rotation: viewport.rotation,
      upright: isUpright,
      atFoot: f! >= 0.9 * viewport.height && f! <= viewport.height,
      fits: e! >= 0 && e! + shownWidth <= viewport.width + 0.5,
    };
  } finally {
    await doc.destroy();
  }
}

// --- The cross-reference chain, read strictly -------------------------------------------------

function latin1Text(bytes: Uint8Array, from: number, to: number): string {
  let out = '';
  for (let i = Math.max(0, from); i < Math.min(to, bytes.length); i += 1) out += String.fromCharCode(bytes[i]!);
  return out;
}

type XrefEntry = { type: 0 | 1 | 2; a: number; b: number; section: number };

/** A stream object at `offset`: its dictionary's text and its decoded data (Flate, PNG predictors). */
function streamAt(bytes: Uint8Array, offset: number) {
  const head = latin1Text(bytes, offset, offset + 4096);
  const open = /^(\d+)\s+(\d+)\s+obj\b/.exec(head);
  const keyword = /\bstream(\r\n|\n)/.exec(head);
  if (!open || !keyword) throw new Error(`no stream object at ${offset}`);
  const dict = head.slice(open[0].length, keyword.index);
  const start = offset + keyword.index + keyword[0].length;
  const length = /\/Length\s+(\d+)(\s+\d+\s+R)?/.exec(dict);
  const direct = length && !length[2] ? length : null;
  let end: number;
  if (direct) end = start + Number(direct[1]);
  else {
    const rest = latin1Text(bytes, start, start + 64 * 1024 * 1024);
    end = start + rest.indexOf('endstream');
  }
  let data = bytes.subarray(start, end);
  if (/\/Filter\s*(\[\s*)?\/FlateDecode/.test(dict)) data = unzlibSync(data);
  const predictor = Number(/\/Predictor\s+(\d+)/.exec(dict)?.[1] ?? 1);
  if (predictor >= 10) {
    const columns = Number(/\/Columns\s+(\d+)/.exec(dict)?.[1] ?? 1);
    const rows = data.length / (columns + 1);
    const out = new Uint8Array(rows * columns);
    for (let r = 0; r < rows; r += 1) {
      const kind = data[r * (columns + 1)]!;
      for (let c = 0; c < columns; c += 1) {
        const raw = data[r * (columns + 1) + 1 + c]!;
        const left = c > 0 ? out[r * columns + c - 1]! : 0;
        const up = r > 0 ? out[(r - 1) * columns + c]! : 0;
        const upLeft = r > 0 && c > 0 ? out[(r - 1) * columns + c - 1]! : 0;
        let value: number;
        if (kind === 0) value = raw;
        else if (kind === 1) value = raw + left;
        else if (kind === 2) value = raw + up;
        else if (kind === 3) value = raw + ((left + up) >> 1);
        else if (kind === 4) {
          const p = left + up - upLeft;
          const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
          value = raw + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
        } else throw new Error(`PNG filter ${kind} in row ${r}`);
        out[r * columns + c] = value & 0xff;
      }
    }
    data = out;
  }
  return { num: Number(open[1]), gen: Number(open[2]), dict, data };
}

type XrefEntries = Map<number, XrefEntry>;

/**
 * A classic cross-reference table's entries, added to `entries` for numbers not yet there (the
 * newest entry wins), and its trailer; null when it has none. A malformed entry ends the table.
 */
function readXrefTable(
  bytes: Uint8Array,
  offset: number,
  section: number,
  entries: XrefEntries,
  problems: string[],
): string | null {
  const text = latin1Text(bytes, offset, bytes.length);
  const at = text.indexOf('trailer');
  if (at < 0) {
    problems.push(`the table at ${offset} has no trailer`);
    return null;
  }
  const tokens = text.slice(4, at).trim().split(/\s+/);
  for (let i = 0; i < tokens.length;) {
    const first = Number(tokens[i]);
    const count = Number(tokens[i + 1]);
    i += 2;
    for (let k = 0; k < count; k += 1, i += 3) {
      const [off, gen, kind] = [Number(tokens[i]), Number(tokens[i + 1]), tokens[i + 2]];
      if (kind !== 'n' && kind !== 'f') {
        problems.push(`the table at ${offset}: entry ${first + k} is ${tokens.slice(i, i + 3).join(' ')}`);
        i = tokens.length;
        break;
      }
      if (!entries.has(first + k)) entries.set(first + k, { type: kind === 'n' ? 1 : 0, a: off, b: gen, section });
    }
  }
  const end = text.indexOf('startxref', at);
  return text.slice(at, end >= 0 ? end : at + 4096);
}

/** A cross-reference stream's rows (by its /W and /Index), added to `entries` for numbers not yet there. */
function addXrefStreamEntries(
  stream: ReturnType<typeof streamAt>,
  offset: number,
  section: number,
  entries: XrefEntries,
  problems: string[],
) {
  const w = (/\/W\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(stream.dict) ?? []).slice(1).map(Number);
  const size = Number(/\/Size\s+(\d+)/.exec(stream.dict)?.[1]);
  const index = (/\/Index\s*\[([^\]]*)\]/.exec(stream.dict)?.[1] ?? `0 ${size}`).trim().split(/\s+/).map(Number);
  const width = w[0]! + w[1]! + w[2]!;
  let row = 0;
  const field = (r: number, from: number, n: number, fallback: number) => {
    if (n === 0) return fallback;
    let v = 0;
    for (let i = 0; i < n; i += 1) v = v * 256 + stream.data[r * width + from + i]!;
    return v;
  };
  for (let p = 0; p + 1 < index.length; p += 2) {
    for (let k = 0; k < index[p + 1]!; k += 1, row += 1) {
      if ((row + 1) * width > stream.data.length) {
        problems.push(`the xref stream at ${offset} is shorter than its /Index`);
        break;
      }
      const type = field(row, 0, w[0]!, 1) as 0 | 1 | 2;
      const num = index[p]! + k;
      if (!entries.has(num))
        entries.set(num, { type, a: field(row, w[0]!, w[1]!, 0), b: field(row, w[0]! + w[1]!, w[2]!, 0), section });
    }
  }
}

/** A cross-reference stream's entries, added to `entries`, and its dictionary (its trailer); null when `offset` holds none. */
function readXrefStream(
  bytes: Uint8Array,
  offset: number,
  section: number,
  entries: XrefEntries,
  problems: string[],
): string | null {
  let stream;
  try {
    stream = streamAt(bytes, offset);
  } catch (error) {
    problems.push(`startxref or /Prev ${offset} is neither "xref" nor a readable stream: ${String(error)}`);
    return null;
  }
  if (!/\/Type\s*\/XRef\b/.test(stream.dict)) {
    problems.push(`the object at ${offset} is not a cross-reference stream`);
    return null;
  }
  addXrefStreamEntries(stream, offset, section, entries, problems);
  return stream.dict;
}

/**
 * Follows the chain from `startxref` (each section, its /XRefStm, then its /Prev), stopping at
 * the first section it cannot read or one it has read before. Returns the newest entry for each
 * number and the newest section's trailer.
 */
function readXrefChain(bytes: Uint8Array, startxref: number, problems: string[]) {
  const entries: XrefEntries = new Map();
  const queue = [startxref];
  const visited = new Set<number>();
  let section = 0;
  let newestTrailer = '';
  while (queue.length > 0) {
    const offset = queue.shift()!;
    if (visited.has(offset)) {
      problems.push(`the chain comes back to ${offset}`);
      break;
    }
    visited.add(offset);
    section += 1;
    const table = latin1Text(bytes, offset, offset + 16).startsWith('xref');
    const read = table ? readXrefTable : readXrefStream;
    const trailer = read(bytes, offset, section, entries, problems);
    if (trailer === null) break;
    const xrefStm = table ? /\/XRefStm\s+(\d+)/.exec(trailer) : null;
    if (xrefStm) queue.unshift(Number(xrefStm[1]));
    if (section === 1) newestTrailer = trailer;
    const prev = /\/Prev\s+(\d+)/.exec(trailer);
    if (prev) queue.push(Number(prev[1]));
  }
  return { entries, newestTrailer };
}

/** The object numbers object stream `num` (at `offset`) lists, in order; none, and a problem, if it cannot be read. */
function objectStreamNumbers(bytes: Uint8Array, num: number, offset: number, problems: string[]): number[] {
  try {
    const stream = streamAt(bytes, offset);
    const n = Number(/\/N\s+(\d+)/.exec(stream.dict)?.[1]);
    const first = Number(/\/First\s+(\d+)/.exec(stream.dict)?.[1]);
    const header = latin1Text(stream.data, 0, first).trim().split(/\s+/).map(Number);
    return Array.from({ length: n }, (_, i) => header[2 * i]!);
  } catch (error) {
    problems.push(`object stream ${num}: ${String(error)}`);
    return [];
  }
}

/** Checks each entry in use: a type 1 entry's offset starts "<num> <gen> obj", a type 2 entry's object stream lists it at its index. */
function checkXrefEntries(bytes: Uint8Array, entries: XrefEntries, size: number, problems: string[]) {
  const objectStreams = new Map<number, number[]>();
  for (const [num, entry] of entries) {
    if (num >= size) problems.push(`object ${num} is listed but the newest /Size is ${size}`);
    if (entry.type === 1) {
      const at = latin1Text(bytes, entry.a, entry.a + 40);
      if (!new RegExp(`^${num}\\s+${entry.b}\\s+obj\\b`).test(at)) {
        problems.push(
          `object ${num} (section ${entry.section}) at ${entry.a} reads ${JSON.stringify(at.slice(0, 24))}`,
        );
      }
    } else if (entry.type === 2) {
      const holder = entries.get(entry.a);
      if (!holder || holder.type !== 1) {
        problems.push(`object ${num} is in object stream ${entry.a}, which is not in use`);
        continue;
      }
      let listed = objectStreams.get(entry.a);
      if (!listed) {
        listed = objectStreamNumbers(bytes, entry.a, holder.a, problems);
        objectStreams.set(entry.a, listed);
      }
      if (listed[entry.b] !== num)
        problems.push(`object ${num}: object stream ${entry.a} has ${listed[entry.b]} at index ${entry.b}`);
    }
  }
}

/**
 * Reads the cross-reference chain from the last startxref as a strict reader would (each
 * section, its /XRefStm, then its /Prev; the newest entry for a number wins) and checks every
 * entry in use: a type 1 entry's offset must start "<num> <gen> obj", a type 2 entry's object
 * stream must list the number at its index. Returns the problems (none: every object is where
 * the file says). A reader like pdf.js would rebuild a broken table silently; this does not.
 */
export function xrefProblems(bytes: Uint8Array): string[] {
  const problems: string[] = [];
  const tail = latin1Text(bytes, bytes.length - 1024, bytes.length);
  const last = /startxref\s+(\d+)\s+%%EOF[\s\0]*$/.exec(tail);
  if (!last) return ['no startxref and %%EOF at the end'];
  const { entries, newestTrailer } = readXrefChain(bytes, Number(last[1]), problems);
  if (!/\/Root\s+\d+\s+\d+\s+R/.test(newestTrailer)) problems.push('the newest trailer has no /Root');
  const size = Number(/\/Size\s+(\d+)/.exec(newestTrailer)?.[1] ?? NaN);
  checkXrefEntries(bytes, entries, size, problems);
  return problems;
}
