// PDFs shaped like real books, written byte by byte, for the stamping tests and
// `npm run bench:stamp`. No PDF library makes them, so their structure is exactly what is asked
// for: the cross-reference form (a classic table, a cross-reference stream over object streams,
// a hybrid file, a linearized file), an incremental update already there, the page tree's
// inherited attributes, the form of page 1's /Contents, an /Encrypt entry. Only `fflate` is
// imported and no file is read, so the same module runs in Node (vitest) and in Deno (the
// bench's worker); the font's bytes are a parameter (test-support.ts and the bench's worker read
// LiberationSans-Regular.ttf from pdfjs-dist's standard_fonts/).
//
// Every book has: a Title, Author and Producer (the Info dictionary) and a trailer /ID; text
// pages (Flate content streams of BT / Tf / Td / Tj lines of prose) in one embedded TrueType
// font (/FontFile2), whose font, descriptor and resources dictionary are shared by all pages
// through an indirect /Resources on the root Pages node (inherited); a balanced page tree
// (Kids of `fanout`) with the /MediaBox on the root; an outline of chapters with nested
// sections (/Count, /Dest to their pages). Filler images (DeviceGray, random bytes, so they do
// not compress) bring a book to `targetBytes`.
//
// How REAL_BOOK differs from a real 20 MB LaTeX book: a real one is mostly text (content
// streams with TJ kerning arrays, 3-10 KB a page) and many subset Type 1 fonts, with vector
// figures; this one has lighter text pages, one font, and reaches its size with images on every
// page. For stamping what matters is the same: the count and kind of objects, the page tree,
// object streams and the cross-reference stream, the size the reader has to skip over.
import { zlibSync } from 'fflate';

export type XrefForm = 'table' | 'stream' | 'hybrid' | 'linearized';
/** Page 1's /Contents: one stream, a direct array of streams, a reference to an array of streams, or none. */
export type ContentsForm = 'stream' | 'array' | 'indirect-array' | 'none';
/** Where an inheritable attribute sits: the root Pages node, page 1's parent Pages node, or page 1. */
export type Placement = 'root' | 'parent' | 'page1';
export type Box = readonly [number, number, number, number];
export type Rotation = 0 | 90 | 180 | 270;

export type BookSpec = {
  /** A TrueType font's bytes (LiberationSans-Regular.ttf), embedded as /FontFile2. */
  font: Uint8Array;
  pages: number;
  xref: XrefForm;
  /** Filler images on pages 2.. bring the file to about this size. */
  targetBytes?: number;
  /** The cross-reference stream's rows PNG Up-filtered (/DecodeParms << /Predictor 12 /Columns n >>), as most producers do. */
  predictor?: boolean;
  /** Objects per object stream ('stream' and 'hybrid'); 100 unless said. */
  perObjectStream?: number;
  /** Kids per Pages node; 10 unless said. */
  fanout?: number;
  /** On the root Pages node (inherited by every page); 6 x 9 in unless said. */
  mediaBox?: Box;
  cropBox?: { box: Box; on: Placement };
  rotate?: { angle: Rotation; on: Placement };
  /** Page 1's /Contents; 'stream' unless said. */
  contents?: ContentsForm;
  /**
   * Page 1's content changes the graphics state without saving it first (a `2 0 0 2 0 0 cm`
   * and a fill colour, and text render mode 3, invisible, left set), as some producers and OCR
   * layers do: whatever is drawn after it without `q`/`Q` around the page is scaled and hidden.
   */
  page1LeavesState?: boolean;
  /**
   * Page 1's resources: inherited from the root Pages node (unless said), a dictionary of its
   * own on page 1 (the font and a second font name, /F2), or a reference to a resources object
   * whose /Font is itself a reference (as some producers share them).
   */
  page1Resources?: 'inherited' | 'direct' | 'indirect';
  /**
   * Every stream's /Length (object streams' too, not the cross-reference stream's, which must
   * be direct) an indirect reference to a number written just after it, as Ghostscript does.
   * Not for 'linearized'.
   */
  indirectLengths?: boolean;
  /** Bytes after the last %%EOF (a line end, NULs from a transfer): readers allow them. */
  afterEof?: string;
  chapters?: number;
  sectionsPerChapter?: number;
  title?: string;
  author?: string;
  /** An incremental update already appended: a new Info (Title changed) and a rewritten page 1 with new contents. */
  earlierUpdate?: boolean;
  /**
   * A Standard security handler in the trailer (/V 2 /R 3 /Length 128, /O and /U of 32 bytes,
   * /P -3904), so a reader asks for a password. Unlike a really encrypted file, no string or
   * stream is encrypted and /O and /U are random bytes (no password opens it): enough for
   * "is it encrypted?", not for decrypting.
   */
  encrypted?: boolean;
};

type Preset = Omit<BookSpec, 'font'>;

/** ~1,500 pages, ~20 MB: object streams and a predicted cross-reference stream, ~60 outline entries. */
export const REAL_BOOK: Preset = {
  pages: 1500,
  xref: 'stream',
  predictor: true,
  targetBytes: 20_000_000,
  fanout: 10,
  chapters: 12,
  sectionsPerChapter: 4,
  title: 'Write Your Book',
  author: 'Jo Author',
};
/** 200 MB, 2,000 pages, same shape as REAL_BOOK. */
export const BIG_BOOK: Preset = { ...REAL_BOOK, pages: 2000, targetBytes: 200_000_000, chapters: 20 };
/** Linearized ("Fast Web View"), classic tables, ~5 MB. */
export const LINEARIZED: Preset = {
  pages: 400,
  xref: 'linearized',
  targetBytes: 5_000_000,
  fanout: 25,
  chapters: 10,
  sectionsPerChapter: 3,
  title: 'Write Your Book (web edition)',
  author: 'Jo Author',
};
/** Object streams and a cross-reference stream, then an earlier incremental update (an xref stream with /Prev). */
export const UPDATED: Preset = {
  pages: 400,
  xref: 'stream',
  predictor: true,
  targetBytes: 5_000_000,
  fanout: 20,
  chapters: 10,
  sectionsPerChapter: 3,
  earlierUpdate: true,
  title: 'Write Your Book',
  author: 'Jo Author',
};
/** A classic table whose trailer's /XRefStm lists the pages kept in object streams. */
export const HYBRID: Preset = {
  pages: 200,
  xref: 'hybrid',
  targetBytes: 2_000_000,
  fanout: 50,
  chapters: 8,
  sectionsPerChapter: 2,
  title: 'Write Your Book',
  author: 'Jo Author',
};
/** A small classic file: a cross-reference table, no object streams, text only. */
export const CLASSIC: Preset = { pages: 24, xref: 'table', chapters: 4, sectionsPerChapter: 2 };

// --- Bytes --------------------------------------------------------------------------------

/** Latin-1 bytes of a string whose characters are all below 256. */
function latin1(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

/** Writes to `write` and counts the offset; text is gathered into chunks of 64 KB or so. */
class Sink {
  offset = 0;
  #parts: string[] = [];
  #pending = 0;
  constructor(private readonly write: (chunk: Uint8Array) => void) {}
  text(text: string) {
    this.#parts.push(text);
    this.#pending += text.length;
    this.offset += text.length;
    if (this.#pending >= 1 << 16) this.flush();
  }
  bytes(bytes: Uint8Array) {
    this.flush();
    this.write(bytes);
    this.offset += bytes.length;
  }
  flush() {
    if (this.#pending === 0) return;
    this.write(latin1(this.#parts.join('')));
    this.#parts = [];
    this.#pending = 0;
  }
}

/** Deterministic pseudo-random numbers (xorshift32). */
function random(seed: number): () => number {
  let x = Math.imul(seed + 1, 2654435761) >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

function randomBytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  const next = random(seed);
  let i = 0;
  for (; i + 4 <= length; i += 4) {
    const x = next();
    out[i] = x;
    out[i + 1] = x >>> 8;
    out[i + 2] = x >>> 16;
    out[i + 3] = x >>> 24;
  }
  for (; i < length; i += 1) out[i] = next();
  return out;
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** A PDF text string: a literal in PDFDocEncoding (Latin-1 here) when it can be, else UTF-16BE hex with a BOM. */
export function pdfString(text: string): string {
  if (/^[\x20-\x7e\u00a0-\u00ff]*$/.test(text)) {
    return `(${text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[\u00a0-\u00ff]/g, (c) => `\\${c.charCodeAt(0).toString(8)}`)})`;
  }
  let out = '<FEFF';
  for (let i = 0; i < text.length; i += 1) out += text.charCodeAt(i).toString(16).padStart(4, '0').toUpperCase();
  return `${out}>`;
}

// --- Text -----------------------------------------------------------------------------------

const WORDS = (
  'the a an of to and in that it with as for on at by from book page chapter write draft reader story idea plan ' +
  'edit revise publish author voice scene character plot begin end each every first last small quiet clear ' +
  'simple honest careful patient daily habit morning evening word sentence paragraph outline note margin shelf ' +
  'library print copy proof cover title spine index letter market agent editor contract deadline'
).split(' ');

function proseLine(next: () => number, chars = 74): string {
  const words: string[] = [];
  let length = 0;
  while (length < chars - 10) {
    const word = WORDS[next() % WORDS.length]!;
    words.push(word);
    length += word.length + 1;
  }
  const line = words.join(' ');
  return `${line[0]!.toUpperCase()}${line.slice(1)}${next() % 3 === 0 ? '.' : ','}`;
}

const literal = (text: string) => `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;

/** Helvetica's widths (Liberation Sans has the same metrics), WinAnsi 32..126. */
const WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556,
  556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833,
  722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556,
  556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334,
  260, 334, 584,
];

// --- Structure -----------------------------------------------------------------------------

/** A stream: its dictionary's entries (without /Length) and its (already filtered) data. */
type StreamBody = { dict: string; data: Uint8Array };
type Body = string | StreamBody;
type Entry = readonly [type: 0 | 1 | 2, field2: number, field3: number];

/** An object of the file: its number is given once the file's order is known; its body is made when written. */
class Slot {
  num = 0;
  constructor(
    public make: (at: number) => Body,
    readonly firstPage = false,
  ) {}
  get ref() {
    return `${this.num} 0 R`;
  }
}

export type OutlineNode = { title: string; items: OutlineNode[] };

function chapterTitle(i: number): string {
  // One title as UTF-16BE (a dash and a curly apostrophe), as real books have.
  if (i === 2) return 'Chapter 2: The reader\u2019s time \u2013 and yours';
  return i === 1
    ? 'Chapter 1: Pr\u00e9face'
    : `Chapter ${i}: ${['Plan', 'Draft', 'Revise', 'Publish'][i % 4]} the book`;
}

/** What a reader should find in the book `spec` makes: pages, Title, Author, the outline's titles. */
export function bookFacts(spec: Omit<BookSpec, 'font'>) {
  const chapters = Math.max(0, Math.min(spec.chapters ?? 0, spec.pages));
  const outline: OutlineNode[] = Array.from({ length: chapters }, (_, c) => ({
    title: chapterTitle(c + 1),
    items: Array.from({ length: spec.sectionsPerChapter ?? 0 }, (_, s) => ({
      title: `${c + 1}.${s + 1} ${['Why', 'How', 'When', 'Where'][s % 4]} it works`,
      items: [],
    })),
  }));
  const title = spec.title ?? 'Write Your Book';
  return {
    pages: spec.pages,
    title: spec.earlierUpdate ? `${title}, second printing` : title,
    author: spec.author ?? 'Yes, You Can!',
    outline,
  };
}

const DEFAULT_MEDIA_BOX: Box = [0, 0, 432, 648];
const box = (b: Box) => `[${b.join(' ')}]`;

type Facts = ReturnType<typeof bookFacts>;

/** What every part of the book is built from, and the list its objects are added to, in the file's order. */
type Plan = {
  spec: BookSpec;
  facts: Facts;
  mediaBox: Box;
  pageCount: number;
  fanout: number;
  /** The 0-based page each chapter starts on. */
  chapterStarts: number[];
  slots: Slot[];
  /** Adds an object to `slots` (its number is its place there, unless linearized). */
  slot: (make: (at: number) => Body, firstPage?: boolean) => Slot;
};

function planBook(spec: BookSpec): Plan {
  const facts = bookFacts(spec);
  const pageCount = Math.max(1, spec.pages);
  const slots: Slot[] = [];
  return {
    spec,
    facts,
    mediaBox: spec.mediaBox ?? DEFAULT_MEDIA_BOX,
    pageCount,
    fanout: Math.max(2, spec.fanout ?? 10),
    chapterStarts: facts.outline.map((_, c) => Math.floor((c * pageCount) / facts.outline.length)),
    slots,
    slot: (make, firstPage = false) => {
      const s = new Slot(make, firstPage);
      slots.push(s);
      return s;
    },
  };
}

/** The text of page `n` (0-based) as content operators, scaled by `k` (page1LeavesState draws at half size under a 2x matrix). */
function pageOps(plan: Plan, n: number, k = 1): string[] {
  const { facts, chapterStarts } = plan;
  const [x0, y0, x1, y1] = plan.mediaBox;
  const next = random(n + 7);
  const left = x0 + 54;
  const top = y1 - 58;
  const ops: string[] = [];
  const s = (v: number) => +(v * k).toFixed(2);
  if (n === 0) {
    ops.push(`BT /F1 ${s(24)} Tf ${s(left)} ${s(top - 40)} Td ${literal(facts.title.slice(0, 30))} Tj ET`);
    ops.push(`BT /F1 ${s(14)} Tf ${s(left)} ${s(top - 80)} Td ${literal(facts.author)} Tj ET`);
  } else {
    const chapter = chapterStarts.indexOf(n);
    if (chapter >= 0) ops.push(`BT /F1 ${s(18)} Tf ${s(left)} ${s(top)} Td ${literal(`Chapter ${chapter + 1}`)} Tj ET`);
  }
  const lines = n === 0 ? 12 : 36;
  const start = n === 0 ? top - 140 : top - 30;
  ops.push(`BT /F1 ${s(10)} Tf ${s(left)} ${s(start)} Td ${literal(proseLine(next))} Tj`);
  for (let i = 1; i < lines; i += 1) ops.push(`0 ${s(-13)} Td ${literal(proseLine(next))} Tj`);
  ops.push('ET');
  ops.push(`BT /F1 ${s(9)} Tf ${s((x0 + x1) / 2 - 8)} ${s(y0 + 30)} Td ${literal(String(n + 1))} Tj ET`);
  return ops;
}

const flate = (text: string) => zlibSync(latin1(text), { level: 6 });
const contentStream = (text: string): StreamBody => ({ dict: '/Filter /FlateDecode', data: flate(text) });

/** Page 1's content, split into `parts` streams at token boundaries (mid-BT, as producers do). */
function page1Parts(plan: Plan, parts: number, note?: string): string[] {
  const leaves = plan.spec.page1LeavesState === true;
  const ops = pageOps(plan, 0, leaves ? 0.5 : 1);
  if (note)
    ops.push(`BT /F1 ${leaves ? 5 : 10} Tf ${leaves ? 27 : 54} ${leaves ? 100 : 200} Td ${literal(note)} Tj ET`);
  if (leaves) {
    ops.unshift('2 0 0 2 0 0 cm 0.2 g 3 w');
    ops.push('BT 3 Tr ET');
  }
  if (parts <= 1) return [ops.join('\n')];
  const cut1 = Math.floor(ops.length / 3);
  const cut2 = Math.floor((2 * ops.length) / 3);
  return [ops.slice(0, cut1), ops.slice(cut1, cut2), ops.slice(cut2)].map((p) => p.join('\n'));
}

/** Shared resources: the font, its descriptor and file, and the resources dictionary the root Pages node holds. */
function addFont(plan: Plan) {
  const { spec } = plan;
  const fontFile = plan.slot(
    () => ({ dict: `/Length1 ${spec.font.length} /Filter /FlateDecode`, data: zlibSync(spec.font, { level: 6 }) }),
    true,
  );
  const descriptor = plan.slot(
    () =>
      `<< /Type /FontDescriptor /FontName /LiberationSans /Flags 32 /FontBBox [-543 -303 1300 979] /ItalicAngle 0 ` +
      `/Ascent 905 /Descent -212 /CapHeight 729 /XHeight 519 /StemV 80 /FontFile2 ${fontFile.ref} >>`,
    true,
  );
  const font = plan.slot(
    () =>
      `<< /Type /Font /Subtype /TrueType /BaseFont /LiberationSans /FirstChar 32 /LastChar 126 ` +
      `/Widths [${WIDTHS.join(' ')}] /Encoding /WinAnsiEncoding /FontDescriptor ${descriptor.ref} >>`,
    true,
  );
  const resources = plan.slot(() => `<< /Font << /F1 ${font.ref} >> /ProcSet [/PDF /Text /ImageB] >>`, true);
  return { font, resources };
}

/** Page 1's own /Resources entry (with its objects, when 'indirect'), or '' when it inherits them. */
function addPage1Resources(plan: Plan, font: Slot): () => string {
  const { spec } = plan;
  const page1FontDict =
    spec.page1Resources === 'indirect' ? plan.slot(() => `<< /F1 ${font.ref} /F2 ${font.ref} >>`, true) : null;
  const page1ResourcesObject = page1FontDict
    ? plan.slot(() => `<< /Font ${page1FontDict.ref} /ProcSet [/PDF /Text] >>`, true)
    : null;
  return () =>
    page1ResourcesObject
      ? ` /Resources ${page1ResourcesObject.ref}`
      : spec.page1Resources === 'direct'
        ? ` /Resources << /Font << /F1 ${font.ref} /F2 ${font.ref} >> /ProcSet [/PDF /Text] >>`
        : '';
}

/** The inheritable attributes `spec` puts at `on`. */
function inheritable(spec: BookSpec, on: Placement): string {
  return (
    `${spec.cropBox?.on === on ? ` /CropBox ${box(spec.cropBox.box)}` : ''}` +
    `${spec.rotate?.on === on ? ` /Rotate ${spec.rotate.angle}` : ''}`
  );
}

/** Page 1 (its parent looked up in `parentOf` when written), its content streams and, if indirect, their array. */
function addPage1(plan: Plan, parentOf: Map<Slot, Slot>, resources: () => string) {
  const { spec } = plan;
  const contentsForm = spec.contents ?? 'stream';
  const page1Streams = contentsForm === 'none' ? 0 : contentsForm === 'stream' ? 1 : 3;
  const page1Content = page1Parts(plan, page1Streams).map((text) => plan.slot(() => contentStream(text), true));
  const page1Array =
    contentsForm === 'indirect-array' ? plan.slot(() => `[${page1Content.map((c) => c.ref).join(' ')}]`, true) : null;
  const contentsValue = () =>
    page1Array
      ? page1Array.ref
      : page1Content.length === 0
        ? null
        : page1Content.length === 1
          ? page1Content[0]!.ref
          : `[${page1Content.map((c) => c.ref).join(' ')}]`;
  const page1: Slot = plan.slot(() => page1Dict(contentsValue()), true);
  function page1Dict(contents: string | null): string {
    return (
      `<< /Type /Page /Parent ${parentOf.get(page1)!.ref}${inheritable(spec, 'page1')}${resources()}` +
      `${contents ? ` /Contents ${contents}` : ''} >>`
    );
  }
  return { page1, page1Content, page1Array, page1Dict, contentsForm };
}

/** A filler image for page `n` written at `at`: random grey rows, enough to reach targetBytes * (n + 1) / pages by the end of the page. */
function fillerImage(plan: Plan, n: number, at: number): StreamBody {
  const aim = ((plan.spec.targetBytes ?? 0) * (n + 1)) / plan.pageCount;
  const width = 256;
  const rows = Math.max(1, Math.floor((aim - at - 1500) / width));
  return {
    dict: `/Type /XObject /Subtype /Image /Width ${width} /Height ${rows} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
    data: zlibSync(randomBytes(width * rows, n), { level: 0 }),
  };
}

/** Page `n` (0-based, from 1): its text, a filler image and the content that draws it if `withImages`, then the page. */
function addTextPage(plan: Plan, n: number, font: Slot, parentOf: Map<Slot, Slot>, withImages: boolean): Slot {
  const [x0, y0] = plan.mediaBox;
  const content = plan.slot(() => contentStream(pageOps(plan, n).join('\n')));
  const image = withImages ? plan.slot((at) => fillerImage(plan, n, at)) : null;
  const imageContent = image
    ? plan.slot(() => contentStream(`q 160 0 0 120 ${x0 + 136} ${y0 + 120} cm /Im1 Do Q`))
    : null;
  const page = plan.slot(() => {
    const own = image
      ? ` /Resources << /Font << /F1 ${font.ref} >> /XObject << /Im1 ${image.ref} >> /ProcSet [/PDF /Text /ImageB] >>`
      : '';
    const contents = imageContent ? `[${imageContent.ref} ${content.ref}]` : content.ref;
    return `<< /Type /Page /Parent ${parentOf.get(page)!.ref}${own} /Contents ${contents} >>`;
  });
  return page;
}

/** A balanced page tree of placeholder nodes, bottom level first; each kid's node is set in `parentOf`. */
type Tree = { nodes: Slot[]; kidsOf: Map<Slot, Slot[]>; countOf: Map<Slot, number>; root: Slot };

/** The page tree, balanced: Pages nodes of up to `fanout` kids, level by level up to the root. */
function balancedTree(pages: Slot[], fanout: number, parentOf: Map<Slot, Slot>): Tree {
  const nodes: Slot[] = [];
  const kidsOf = new Map<Slot, Slot[]>();
  const countOf = new Map<Slot, number>();
  for (const page of pages) countOf.set(page, 1);
  let level: Slot[] = pages;
  do {
    const up: Slot[] = [];
    for (let i = 0; i < level.length; i += fanout) {
      const kids = level.slice(i, i + fanout);
      const node = new Slot(() => '');
      kidsOf.set(node, kids);
      countOf.set(
        node,
        kids.reduce((sum, kid) => sum + countOf.get(kid)!, 0),
      );
      for (const kid of kids) parentOf.set(kid, node);
      up.push(node);
    }
    nodes.push(...up);
    level = up;
  } while (level.length > 1);
  return { nodes, kidsOf, countOf, root: level[0]! };
}

/**
 * The Pages nodes' objects: the root holds the /MediaBox, the shared /Resources and what
 * `spec` puts on it, page 1's parent what `spec` puts there. The tree's nodes were
 * placeholders while it was built; afterwards `parentOf` gives each page its node's object.
 */
function addPageTree(plan: Plan, pages: Slot[], parentOf: Map<Slot, Slot>, resources: Slot) {
  const { spec, mediaBox } = plan;
  const tree = balancedTree(pages, plan.fanout, parentOf);
  const page1Parent = parentOf.get(pages[0]!)!;
  const slotOf = new Map<Slot, Slot>();
  const attrs = (node: Slot) =>
    node === tree.root
      ? ` /MediaBox ${box(mediaBox)} /Resources ${resources.ref}${inheritable(spec, 'root')}`
      : node === page1Parent
        ? inheritable(spec, 'parent')
        : '';
  for (const node of tree.nodes) {
    const made = plan.slot(
      () => {
        const parent = parentOf.get(node);
        const kids = tree.kidsOf.get(node)!.map((kid) => (slotOf.get(kid) ?? kid).ref);
        return (
          `<< /Type /Pages${parent ? ` /Parent ${slotOf.get(parent)!.ref}` : ''}` +
          ` /Kids [${kids.join(' ')}] /Count ${tree.countOf.get(node)}${attrs(node)} >>`
        );
      },
      node === tree.root || node === page1Parent,
    );
    slotOf.set(node, made);
  }
  for (const page of pages) {
    const parent = parentOf.get(page)!;
    parentOf.set(page, slotOf.get(parent)!);
  }
  return { pagesRoot: slotOf.get(tree.root)!, treeSlots: tree.nodes.map((node) => slotOf.get(node)!) };
}

/** An outline item's /Prev and /Next among `siblings`. */
function siblingLinks(siblings: Slot[], i: number): string {
  return `${i > 0 ? ` /Prev ${siblings[i - 1]!.ref}` : ''}${i < siblings.length - 1 ? ` /Next ${siblings[i + 1]!.ref}` : ''}`;
}

/** The page section `s` of chapter `c` points to: spread evenly over the chapter's pages. */
function sectionPage(plan: Plan, c: number, s: number): number {
  const { chapterStarts, pageCount } = plan;
  const first = chapterStarts[c]!;
  const end = c + 1 < chapterStarts.length ? chapterStarts[c + 1]! : pageCount;
  const sections = plan.facts.outline[c]!.items.length;
  return Math.min(pageCount - 1, first + Math.floor(((s + 1) * (end - first)) / (sections + 1)));
}

/** Chapter `c`'s outline item (odd chapters closed, /Count negative) and its sections' items, in that order. */
function addChapter(plan: Plan, pages: Slot[], outlineRoot: Slot, chapterSlots: Slot[], c: number): Slot[] {
  const chapter = plan.facts.outline[c]!;
  const sections = chapter.items;
  const open = c % 2 === 0;
  const me: Slot = plan.slot(() => {
    const target = pages[plan.chapterStarts[c]!]!;
    return (
      `<< /Title ${pdfString(chapter.title)} /Parent ${outlineRoot.ref}${siblingLinks(chapterSlots, c)}` +
      `${sections.length ? ` /First ${made[0]!.ref} /Last ${made[made.length - 1]!.ref} /Count ${open ? sections.length : -sections.length}` : ''}` +
      ` /Dest [${target.ref} /XYZ null null null] >>`
    );
  }, true);
  const made: Slot[] = sections.map((section, s) =>
    plan.slot((): string => {
      const target = pages[sectionPage(plan, c, s)]!;
      return (
        `<< /Title ${pdfString(section.title)} /Parent ${me.ref}${siblingLinks(made, s)}` +
        ` /Dest [${target.ref} /Fit] >>`
      );
    }, true),
  );
  return [me, ...made];
}

/** The outline: chapters (odd ones closed, /Count negative) with sections; none if the book has no chapters. */
function addOutline(plan: Plan, pages: Slot[]) {
  const { facts } = plan;
  const outlineRoot = facts.outline.length > 0 ? plan.slot(() => '', true) : null;
  const outlineSlots: Slot[] = [];
  if (outlineRoot) {
    const chapterSlots: Slot[] = [];
    facts.outline.forEach((_, c) => {
      const items = addChapter(plan, pages, outlineRoot, chapterSlots, c);
      chapterSlots.push(items[0]!);
      outlineSlots.push(...items);
    });
    const visible = facts.outline.reduce((sum, chapter, c) => sum + 1 + (c % 2 === 0 ? chapter.items.length : 0), 0);
    outlineRoot.make = () =>
      `<< /Type /Outlines /First ${chapterSlots[0]!.ref} /Last ${chapterSlots[chapterSlots.length - 1]!.ref} /Count ${visible} >>`;
  }
  return { outlineRoot, outlineSlots };
}

function infoDict(facts: Facts, title: string): string {
  return (
    `<< /Title ${pdfString(title)} /Author ${pdfString(facts.author)} /Creator (LaTeX with hyperref)` +
    ` /Producer (book-fixtures.ts) /CreationDate (D:20260101120000Z) >>`
  );
}

/** The catalog, the Info dictionary (the first printing's title) and, if `spec.encrypted`, the /Encrypt dictionary. */
function addDocument(plan: Plan, pagesRoot: Slot, outlineRoot: Slot | null) {
  const { spec, facts } = plan;
  const catalog = plan.slot(
    () =>
      `<< /Type /Catalog /Pages ${pagesRoot.ref}${outlineRoot ? ` /Outlines ${outlineRoot.ref} /PageMode /UseOutlines` : ''} >>`,
    true,
  );
  const info = plan.slot(() => infoDict(facts, facts.title.replace(/, second printing$/, '')));
  const encrypt = spec.encrypted
    ? plan.slot(
        () =>
          `<< /Filter /Standard /V 2 /R 3 /Length 128 /O <${hex(randomBytes(32, 1))}> /U <${hex(randomBytes(32, 2))}> /P -3904 >>`,
      )
    : null;
  return { catalog, info, encrypt };
}

/** The book's objects, numbered, and what the writers need to know about them. */
function buildBook(spec: BookSpec) {
  const plan = planBook(spec);
  const { facts, pageCount } = plan;
  const id0 = hex(randomBytes(16, facts.title.length * 31 + pageCount));
  const { font, resources } = addFont(plan);
  const page1Resources = addPage1Resources(plan, font);
  const parentOf = new Map<Slot, Slot>();
  const { page1, page1Content, page1Array, page1Dict, contentsForm } = addPage1(plan, parentOf, page1Resources);
  const withImages = (spec.targetBytes ?? 0) > 0 && pageCount > 1;
  const pages = [page1];
  for (let n = 1; n < pageCount; n += 1) pages.push(addTextPage(plan, n, font, parentOf, withImages));
  const { pagesRoot, treeSlots } = addPageTree(plan, pages, parentOf, resources);
  const { outlineRoot, outlineSlots } = addOutline(plan, pages);
  const { catalog, info, encrypt } = addDocument(plan, pagesRoot, outlineRoot);
  return {
    spec,
    facts,
    slots: plan.slots,
    catalog,
    info,
    infoDict: (title: string) => infoDict(facts, title),
    encrypt,
    pages,
    pagesRoot,
    treeSlots,
    outlineSlots,
    outlineRoot,
    page1Content,
    page1Array,
    page1Dict,
    page1Parts: (parts: number, note?: string) => page1Parts(plan, parts, note),
    contentStream,
    contentsForm,
    id0,
  };
}

type Book = ReturnType<typeof buildBook>;

// --- Writing ---------------------------------------------------------------------------------

function writeObject(sink: Sink, num: number, body: Body) {
  if (typeof body === 'string') {
    sink.text(`${num} 0 obj\n${body}\nendobj\n`);
  } else {
    sink.text(`${num} 0 obj\n<< ${body.dict} /Length ${body.data.length} >>\nstream\n`);
    sink.bytes(body.data);
    sink.text('\nendstream\nendobj\n');
  }
}

/** Writes objects: streams (and objects `keepOut` says) as they are, the others gathered into object streams. */
class Placer {
  readonly entries: (Entry | undefined)[] = [];
  #members: { num: number; body: string }[] = [];
  constructor(
    readonly sink: Sink,
    readonly next: () => number,
    readonly perStream: number,
    readonly compress: (num: number) => boolean,
    readonly indirectLengths = false,
  ) {}

  place(num: number, body: Body) {
    if (typeof body === 'string' && this.compress(num)) {
      this.#members.push({ num, body });
      if (this.#members.length >= this.perStream) this.flush();
      return;
    }
    if (typeof body === 'string') {
      this.entries[num] = [1, this.sink.offset, 0];
      writeObject(this.sink, num, body);
    } else this.#placeStream(num, body);
  }

  #placeStream(num: number, body: StreamBody) {
    this.entries[num] = [1, this.sink.offset, 0];
    if (!this.indirectLengths) {
      writeObject(this.sink, num, body);
      return;
    }
    const length = this.next();
    this.sink.text(`${num} 0 obj\n<< ${body.dict} /Length ${length} 0 R >>\nstream\n`);
    this.sink.bytes(body.data);
    this.sink.text('\nendstream\nendobj\n');
    this.entries[length] = [1, this.sink.offset, 0];
    this.sink.text(`${length} 0 obj\n${body.data.length}\nendobj\n`);
  }

  /** Writes the object stream gathered so far, if any. */
  flush() {
    const members = this.#members;
    if (members.length === 0) return;
    this.#members = [];
    let at = 0;
    const offsets = members.map((m) => {
      const here = at;
      at += m.body.length + 1;
      return here;
    });
    const header = `${members.map((m, i) => `${m.num} ${offsets[i]}`).join(' ')}\n`;
    const data = latin1(header + members.map((m) => `${m.body}\n`).join(''));
    const num = this.next();
    this.#placeStream(num, {
      dict: `/Type /ObjStm /N ${members.length} /First ${header.length} /Filter /FlateDecode`,
      data: zlibSync(data, { level: 6 }),
    });
    members.forEach((m, i) => (this.entries[m.num] = [2, num, i]));
  }
}

/** Runs of consecutive numbers: [first, count] pairs. */
function runs(nums: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const num of [...nums].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    if (last && last[0] + last[1] === num) last[1] += 1;
    else out.push([num, 1]);
  }
  return out;
}

const pad10 = (n: number) => String(n).padStart(10, '0');

/** A classic cross-reference section of the listed entries (type 1, and object 0 free), then its trailer. */
function writeTable(sink: Sink, entries: (Entry | undefined)[], nums: number[], trailer: string): number {
  const offset = sink.offset;
  let out = 'xref\n';
  for (const [first, count] of runs(nums)) {
    out += `${first} ${count}\n`;
    for (let num = first; num < first + count; num += 1) {
      const entry = entries[num];
      out += num === 0 || !entry ? '0000000000 65535 f\r\n' : `${pad10(entry[1])} 00000 n\r\n`;
    }
  }
  sink.text(`${out}trailer\n<< ${trailer} >>\n`);
  return offset;
}

const byteWidth = (max: number) => (max < 0x100 ? 1 : max < 0x10000 ? 2 : max < 0x1000000 ? 3 : 4);

/**
 * A cross-reference stream (object `num`) of the listed entries plus itself, its fields as
 * narrow as the largest value allows (as pdfTeX and qpdf do), rows optionally Up-predicted.
 * /Index is left out when the entries are 0..size-1 (its default).
 */
function writeXrefStream(
  sink: Sink,
  entries: (Entry | undefined)[],
  listed: number[],
  num: number,
  size: number,
  keys: string,
  predictor: boolean,
): number {
  const offset = sink.offset;
  entries[num] = [1, offset, 0];
  const nums = [...new Set([...listed, num])].sort((a, b) => a - b);
  const rows = nums.map((n): Entry => (n === 0 ? [0, 0, 65535] : (entries[n] ?? [0, 0, 0])));
  const w = [1, byteWidth(Math.max(...rows.map((r) => r[1]))), byteWidth(Math.max(...rows.map((r) => r[2])))] as const;
  const columns = w[0] + w[1] + w[2];
  const raw = new Uint8Array(rows.length * columns);
  rows.forEach((row, r) => {
    let at = r * columns;
    for (let field = 0; field < 3; field += 1) {
      for (let b = w[field]! - 1; b >= 0; b -= 1) raw[at++] = Math.floor(row[field]! / 256 ** b) & 0xff;
    }
  });
  let data = raw;
  if (predictor) {
    data = new Uint8Array(rows.length * (columns + 1));
    for (let r = 0; r < rows.length; r += 1) {
      data[r * (columns + 1)] = 2; // PNG "Up"
      for (let c = 0; c < columns; c += 1) {
        const above = r > 0 ? raw[(r - 1) * columns + c]! : 0;
        data[r * (columns + 1) + 1 + c] = (raw[r * columns + c]! - above) & 0xff;
      }
    }
  }
  const index = runs(nums);
  const whole = index.length === 1 && index[0]![0] === 0 && index[0]![1] === size;
  writeObject(sink, num, {
    dict:
      `/Type /XRef /Size ${size} /W [${w.join(' ')}]${whole ? '' : ` /Index [${index.flat().join(' ')}]`} ${keys}` +
      ` /Filter /FlateDecode${predictor ? ` /DecodeParms << /Predictor 12 /Columns ${columns} >>` : ''}`,
    data: zlibSync(data, { level: 6 }),
  });
  return offset;
}

const HEADER = '%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n';

function trailerKeys(book: Book, size: number, id1 = book.id0) {
  return (
    `/Size ${size} /Root ${book.catalog.ref} /Info ${book.info.ref}` +
    `${book.encrypt ? ` /Encrypt ${book.encrypt.ref}` : ''} /ID [<${book.id0}> <${id1}>]`
  );
}

/** The whole file but an earlier update: where its last cross-reference section is, and what it is. */
type Written = { startxref: number; size: number; lastSection: 'table' | 'stream' };

function writePlain(book: Book, sink: Sink): Written {
  const { spec } = book;
  book.slots.forEach((s, i) => (s.num = i + 1));
  let size = book.slots.length + 1;
  const next = () => size++;
  const keepOut = new Set(
    [book.encrypt, ...(spec.xref === 'hybrid' ? [book.catalog, book.info] : [])].filter((s) => s).map((s) => s!.num),
  );
  const compress = spec.xref === 'table' ? () => false : (num: number) => !keepOut.has(num);
  const placer = new Placer(sink, next, spec.perObjectStream ?? 100, compress, spec.indirectLengths === true);
  sink.text(HEADER);
  for (const s of book.slots) placer.place(s.num, s.make(sink.offset));
  placer.flush();
  const { entries } = placer;
  const all = Array.from({ length: size }, (_, i) => i);
  if (spec.xref === 'table') {
    const startxref = writeTable(sink, entries, all, trailerKeys(book, size));
    sink.text(`startxref\n${startxref}\n%%EOF\n`);
    return { startxref, size, lastSection: 'table' };
  }
  if (spec.xref === 'stream') {
    const num = next();
    const startxref = writeXrefStream(
      sink,
      entries,
      [...all, num],
      num,
      size,
      trailerKeys(book, size).replace(/^\/Size \d+ /, ''),
      spec.predictor === true,
    );
    sink.text(`startxref\n${startxref}\n%%EOF\n`);
    return { startxref, size, lastSection: 'stream' };
  }
  // Hybrid: the objects in object streams are listed only by the stream /XRefStm points to.
  const num = next();
  const compressed = all.filter((n) => entries[n]?.[0] === 2);
  const xrefStm = writeXrefStream(sink, entries, compressed, num, size, '', spec.predictor === true);
  const plain = [...all, num].filter((n) => n === 0 || entries[n]?.[0] === 1);
  const startxref = writeTable(sink, entries, plain, `${trailerKeys(book, size)} /XRefStm ${xrefStm}`);
  sink.text(`startxref\n${startxref}\n%%EOF\n`);
  return { startxref, size, lastSection: 'table' };
}

/**
 * A linearized file, as "Fast Web View" writes one: the linearization dictionary first; the
 * first-page cross-reference section right after it (its trailer's /Prev is the main section at
 * the end, its own startxref 0); the catalog, a (dummy) hint stream, page 1 and what it uses;
 * then the rest, and the main section, whose startxref points back at the first-page section.
 * Objects are numbered as linearizers do: the rest 1.., the first-page part after them. Built
 * in memory (the linearization dictionary holds the file's length), so for books of a few MB.
 */
function writeLinearized(book: Book, sink: Sink): Written {
  const first = book.slots.filter((s) => s.firstPage);
  const rest = book.slots.filter((s) => !s.firstPage);
  rest.forEach((s, i) => (s.num = i + 1));
  const linNum = rest.length + 1;
  const catalogIndex = first.indexOf(book.catalog);
  const ordered = [book.catalog, ...first.filter((_, i) => i !== catalogIndex)];
  const hint = new Slot(() => ({ dict: '/S 16', data: new Uint8Array(32) }), true);
  ordered.splice(1, 0, hint);
  ordered.forEach((s, i) => (s.num = linNum + 1 + i));
  const size = linNum + 1 + ordered.length;

  // The two parts, in memory, offsets relative to each part.
  const chunksA: Uint8Array[] = [];
  const partA = new Sink((c) => chunksA.push(c));
  const entries: (Entry | undefined)[] = [];
  const fixups: { num: number; part: 'A' | 'B'; at: number }[] = [];
  let hintLength = 0;
  for (const s of ordered) {
    const at = partA.offset;
    fixups.push({ num: s.num, part: 'A', at });
    writeObject(partA, s.num, s.make(at));
    if (s === hint) hintLength = partA.offset - at;
  }
  partA.flush();
  const chunksB: Uint8Array[] = [];
  const partB = new Sink((c) => chunksB.push(c));
  for (const s of rest) {
    fixups.push({ num: s.num, part: 'B', at: partB.offset });
    writeObject(partB, s.num, s.make(partB.offset));
  }
  partB.flush();

  // The head, its numbers padded to a fixed width so its length is known before they are.
  const p = (n: number) => String(n).padEnd(10, ' ');
  const linDict = (l: number, h0: number, e: number, t: number) =>
    `${linNum} 0 obj\n<< /Linearized 1 /L ${p(l)} /H [ ${p(h0)} ${p(hintLength)} ] /O ${p(book.pages[0]!.num)} /E ${p(e)} /N ${p(book.pages.length)} /T ${p(t)} >>\nendobj\n`;
  const firstXref = (prev: number) => {
    let out = `xref\n${linNum} ${size - linNum}\n`;
    for (let n = linNum; n < size; n += 1) out += `${pad10(entries[n]?.[1] ?? 0)} 00000 n\r\n`;
    return `${out}trailer\n<< ${trailerKeys(book, size)} /Prev ${p(prev)} >>\nstartxref\n0\n%%EOF\n`;
  };
  const headLength = HEADER.length + linDict(0, 0, 0, 0).length + firstXref(0).length;
  const firstXrefAt = HEADER.length + linDict(0, 0, 0, 0).length;
  for (const f of fixups) entries[f.num] = [1, (f.part === 'A' ? headLength : headLength + partA.offset) + f.at, 0];
  entries[linNum] = [1, HEADER.length, 0];
  const mainAt = headLength + partA.offset + partB.offset;
  const mainHead = `xref\n0 ${linNum}\n`;
  const mainChunks: Uint8Array[] = [];
  const mainSink = new Sink((c) => mainChunks.push(c));
  writeTable(
    mainSink,
    entries,
    Array.from({ length: linNum }, (_, i) => i),
    `/Size ${linNum}`,
  );
  mainSink.text(`startxref\n${firstXrefAt}\n%%EOF\n`);
  mainSink.flush();
  const total = mainAt + mainSink.offset;
  const hintAt = entries[hint.num]![1];

  sink.text(HEADER + linDict(total, hintAt, headLength + partA.offset, mainAt + mainHead.length) + firstXref(mainAt));
  for (const c of chunksA) sink.bytes(c);
  for (const c of chunksB) sink.bytes(c);
  for (const c of mainChunks) sink.bytes(c);
  return { startxref: firstXrefAt, size, lastSection: 'table' };
}

/**
 * An incremental update as an editor would append one: the Info dictionary with a new Title
 * and page 1 rewritten with new contents (its text plus a "Second printing" note), in the form
 * of the file's last section (after a cross-reference stream, the changed objects go in an
 * object stream of their own and the section is a stream).
 */
function writeEarlierUpdate(book: Book, sink: Sink, before: Written) {
  let size = before.size;
  const next = () => size++;
  const contents = book.page1Parts(
    book.page1Content.length === 0 ? 0 : book.page1Content.length,
    'Second printing, 2026',
  );
  const newContents = book.page1Content.length === 0 ? [] : contents.map(() => next());
  const array = book.page1Array ? next() : null;
  const stream = before.lastSection === 'stream';
  const placer = new Placer(
    sink,
    next,
    100,
    (num) => stream && num !== book.encrypt?.num,
    book.spec.indirectLengths === true,
  );
  newContents.forEach((num, i) => placer.place(num, book.contentStream(contents[i]!)));
  const refs = newContents.map((n) => `${n} 0 R`);
  if (array !== null) placer.place(array, `[${refs.join(' ')}]`);
  const value =
    array !== null ? `${array} 0 R` : refs.length === 0 ? null : refs.length === 1 ? refs[0]! : `[${refs.join(' ')}]`;
  placer.place(book.pages[0]!.num, book.page1Dict(value));
  placer.place(book.info.num, book.infoDict(book.facts.title));
  placer.flush();
  const changed = placer.entries.flatMap((e, n) => (e ? [n] : []));
  const id1 = hex(randomBytes(16, 99));
  if (stream) {
    const num = next();
    const at = writeXrefStream(
      sink,
      placer.entries,
      changed,
      num,
      size,
      `${trailerKeys(book, size, id1).replace(/^\/Size \d+ /, '')} /Prev ${before.startxref}`,
      book.spec.predictor === true,
    );
    sink.text(`startxref\n${at}\n%%EOF\n`);
  } else {
    const at = writeTable(sink, placer.entries, changed, `${trailerKeys(book, size, id1)} /Prev ${before.startxref}`);
    sink.text(`startxref\n${at}\n%%EOF\n`);
  }
}

/** Writes the book `spec` describes, chunk by chunk (a 200 MB book is never one string or array). */
export function writeBook(spec: BookSpec, write: (chunk: Uint8Array) => void): void {
  if (spec.xref === 'linearized' && spec.targetBytes && spec.targetBytes > 50_000_000) {
    throw new Error('A linearized book is built in memory: keep it under 50 MB.');
  }
  const book = buildBook(spec);
  const sink = new Sink(write);
  const before = spec.xref === 'linearized' ? writeLinearized(book, sink) : writePlain(book, sink);
  if (spec.earlierUpdate) writeEarlierUpdate(book, sink, before);
  if (spec.afterEof) sink.text(spec.afterEof);
  sink.flush();
}

/** The book as one array (for the tests' small and middle-sized books). */
export function makeBook(spec: BookSpec): Uint8Array {
  const chunks: Uint8Array[] = [];
  writeBook(spec, (chunk) => chunks.push(chunk));
  const out = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Not a PDF at all: the HTML page a wrong export or a failed download leaves behind. */
export function notPdf(): Uint8Array {
  return latin1('<!doctype html>\n<html><head><title>Not found</title></head><body><h1>404</h1></body></html>\n');
}

/**
 * A damaged PDF made from a good one: 'startxref' leaves the file whole but points its last
 * startxref into the middle of a content stream; 'truncated' cuts the file at 60 %, so it has
 * no cross-reference section or startxref at all.
 */
export function damagedPdf(good: Uint8Array, how: 'startxref' | 'truncated'): Uint8Array {
  if (how === 'truncated') return good.slice(0, Math.floor(good.length * 0.6));
  let text = '';
  const tail = good.slice(Math.max(0, good.length - 64));
  for (const b of tail) text += String.fromCharCode(b);
  const at = text.lastIndexOf('startxref');
  if (at < 0) throw new Error('no startxref to damage');
  const fixed = `${text.slice(0, at)}startxref\n${Math.floor(good.length / 2)}\n%%EOF\n`;
  const out = new Uint8Array(good.length - tail.length + fixed.length);
  out.set(good.subarray(0, good.length - tail.length));
  out.set(latin1(fixed), good.length - tail.length);
  return out;
}
