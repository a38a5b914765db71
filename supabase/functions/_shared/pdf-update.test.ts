// The incremental update that stamps page 1, on books written byte by byte in every structure
// real producers use (download/book-fixtures.ts): a classic table, a cross-reference stream
// over object streams (with and without the PNG predictor), a hybrid file, a linearized file,
// files with an earlier update, inherited page attributes, each /Rotate, each form of page 1's
// /Contents. Every stamped copy is read back by a second, independent reader (pdf.js, in
// download/test-support.ts): it must start with the original bytes, keep pages, outline, Title
// and Author, and show the line upright at the foot of page 1 as displayed.
import { unzlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  CLASSIC,
  HYBRID,
  LINEARIZED,
  REAL_BOOK,
  UPDATED,
  bookFacts,
  damagedPdf,
  makeBook,
  notPdf,
  type BookSpec,
  type ContentsForm,
  type Placement,
  type Rotation,
  type XrefForm,
} from '../download/book-fixtures';
import { liberationSans, pdfJsFacts, secondReaderCheck, upright, xrefProblems } from '../download/test-support';
import { StandardFonts, PDFDocument } from 'pdf-lib';
import { PdfProblem, checkPdf, helveticaWidth, stampUpdate, winAnsiBytes, type PdfProblemReason } from './pdf-update';

const font = liberationSans();
const inflate = unzlibSync;
const line = 'Licensed to reader.name+tag@example.com on 2026-11-26';

/** A small book (fast to make and read): 30 pages, a few chapters, the given structure. */
const small = (spec: Partial<BookSpec> = {}): BookSpec => ({
  font,
  pages: 30,
  xref: 'table',
  chapters: 3,
  sectionsPerChapter: 2,
  fanout: 4,
  title: 'Write Your Book',
  author: 'Jo Author',
  ...spec,
});

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The original followed by the update, as the function serves it. */
const stamped = (bytes: Uint8Array, text = line) => concat(bytes, stampUpdate(bytes, text, inflate));

const ascii = (bytes: Uint8Array, from = 0, to = bytes.length) => {
  let out = '';
  for (let i = from; i < Math.min(to, bytes.length); i += 1) out += String.fromCharCode(bytes[i]!);
  return out;
};

/** The file's last startxref value. */
function startxref(bytes: Uint8Array): number {
  const tail = ascii(bytes, Math.max(0, bytes.length - 1024));
  const match = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!match) throw new Error(`no startxref at the end: ${JSON.stringify(tail.slice(-80))}`);
  return Number(match[1]);
}

/** The dictionary of the object or trailer at `offset` (up to its stream or startxref). */
function dictAt(bytes: Uint8Array, offset: number): string {
  const text = ascii(bytes, offset, offset + 200_000);
  const end = text.search(/\bstream\r?\n|startxref/);
  return text.startsWith('xref') ? text.slice(text.indexOf('trailer'), end) : text.slice(0, end);
}

/** The cross-reference section at `offset`: its kind and its trailer's /Prev. */
function section(bytes: Uint8Array, offset: number) {
  const text = ascii(bytes, offset, offset + 200_000);
  if (text.startsWith('xref')) {
    const trailer = text.slice(text.indexOf('trailer'));
    return {
      kind: 'table' as const,
      prev: Number(/\/Prev\s+(\d+)/.exec(trailer.slice(0, trailer.indexOf('startxref')))?.[1] ?? NaN),
    };
  }
  const dict = /^\d+\s+\d+\s+obj\s*<<([\s\S]*?)>>\s*stream/.exec(text)?.[1] ?? '';
  if (/\/Type\s*\/XRef\b/.test(dict))
    return { kind: 'stream' as const, prev: Number(/\/Prev\s+(\d+)/.exec(dict)?.[1] ?? NaN) };
  return { kind: 'neither' as const, prev: NaN, text: text.slice(0, 80) };
}

/** Stamps `original`, then checks the copy with pdf.js and where the line is shown; returns the copy. */
async function stampAndCheck(original: Uint8Array, text = line) {
  const copy = stamped(original, text);
  expect(xrefProblems(copy)).toEqual([]);
  await secondReaderCheck(original, copy, text);
  const shown = await upright(copy, text);
  expect(shown, JSON.stringify(shown)).toMatchObject({ upright: true, atFoot: true, fits: true });
  expect(shown.size).toBeGreaterThanOrEqual(5);
  expect(shown.size).toBeLessThanOrEqual(12);
  return copy;
}

describe('book fixtures (read by pdf.js)', () => {
  it.each([
    ['CLASSIC', CLASSIC],
    ['HYBRID', HYBRID],
    ['LINEARIZED', LINEARIZED],
    ['UPDATED', UPDATED],
  ] as const)('%s opens with its pages, outline, Title and Author', async (_name, preset) => {
    const bytes = makeBook({ font, ...preset });
    const facts = bookFacts(preset);
    expect(xrefProblems(bytes)).toEqual([]);
    const read = await pdfJsFacts(bytes);
    expect({ pages: read.pages, title: read.title, author: read.author, outline: read.outline }).toEqual(facts);
    expect(read.warnings).toEqual([]);
    if (preset.targetBytes) expect(Math.abs(bytes.length - preset.targetBytes) / preset.targetBytes).toBeLessThan(0.1);
  });

  it('REAL_BOOK: 1,500 pages, about 20 MB, object streams, a predicted xref stream, ~60 bookmarks', async () => {
    const bytes = makeBook({ font, ...REAL_BOOK });
    expect(bytes.length).toBeGreaterThan(18_000_000);
    expect(bytes.length).toBeLessThan(22_000_000);
    const dict = dictAt(bytes, startxref(bytes));
    expect(dict).toMatch(/\/Type \/XRef/);
    expect(dict).toMatch(/\/DecodeParms << \/Predictor 12 \/Columns \d+ >>/);
    const facts = bookFacts(REAL_BOOK);
    expect(facts.outline.flatMap((c) => [c, ...c.items])).toHaveLength(60);
    expect(xrefProblems(bytes)).toEqual([]);
    const read = await pdfJsFacts(bytes);
    expect({ pages: read.pages, title: read.title, author: read.author, outline: read.outline }).toEqual(facts);
    expect(read.warnings).toEqual([]);
  });

  it('every structure has a sound cross-reference chain and reads without a warning', async () => {
    const variants: Partial<BookSpec>[] = [];
    for (const xref of ['table', 'stream', 'hybrid', 'linearized'] as XrefForm[]) {
      for (const earlierUpdate of [false, true]) {
        for (const contents of ['stream', 'array', 'indirect-array', 'none'] as ContentsForm[]) {
          variants.push({ xref, earlierUpdate, contents, predictor: contents === 'array', perObjectStream: 7 });
        }
      }
    }
    variants.push(
      { xref: 'stream', page1LeavesState: true },
      { xref: 'table', rotate: { angle: 90, on: 'parent' } },
      { xref: 'stream', page1Resources: 'indirect', earlierUpdate: true },
      { xref: 'table', page1Resources: 'direct' },
      { xref: 'table', indirectLengths: true, earlierUpdate: true },
      { xref: 'stream', indirectLengths: true, earlierUpdate: true },
      { xref: 'hybrid', indirectLengths: true },
      { xref: 'table', afterEof: '\r\n\0\0\0\0' },
    );
    for (const variant of variants) {
      const bytes = makeBook(small(variant));
      expect(xrefProblems(bytes), JSON.stringify(variant)).toEqual([]);
      const read = await pdfJsFacts(bytes);
      const facts = bookFacts(small(variant));
      expect({ pages: read.pages, title: read.title, outline: read.outline }, JSON.stringify(variant)).toEqual({
        pages: facts.pages,
        title: facts.title,
        outline: facts.outline,
      });
      expect(read.warnings, JSON.stringify(variant)).toEqual([]);
      if (variant.earlierUpdate && variant.contents !== 'none')
        expect(read.page1Text).toContain('Second printing, 2026');
    }
    expect(xrefProblems(makeBook(small({ xref: 'stream', encrypted: true })))).toEqual([]);
    expect(xrefProblems(damagedPdf(makeBook(small()), 'startxref'))).not.toEqual([]);
  });

  it('writes each cross-reference form as real files have it', () => {
    // (Booleans, not the files: a failure should not print megabytes of binary.)
    const tableBytes = makeBook(small({ xref: 'table' }));
    const table = ascii(tableBytes);
    expect(table.includes('/ObjStm')).toBe(false);
    expect(ascii(tableBytes, startxref(tableBytes))).toMatch(/^xref\n0 \d+\n0000000000 65535 f\r\n/);

    const streamBytes = makeBook(small({ xref: 'stream', predictor: true, perObjectStream: 20 }));
    const stream = ascii(streamBytes);
    expect(stream.match(/\/Type \/ObjStm/g)!.length).toBeGreaterThan(1);
    expect(dictAt(streamBytes, startxref(streamBytes))).toMatch(
      /\/Type \/XRef.*\/DecodeParms << \/Predictor 12 \/Columns \d+ >>/,
    );
    expect(/^xref$/m.test(stream)).toBe(false);
    expect(/\d+ 0 obj\n<< \/Type \/Page /.test(stream)).toBe(false); // pages are inside object streams

    const hybridBytes = makeBook(small({ xref: 'hybrid' }));
    expect(dictAt(hybridBytes, startxref(hybridBytes))).toMatch(/\/XRefStm \d+/);
    expect(ascii(hybridBytes).includes('/Type /ObjStm')).toBe(true);

    const linearized = makeBook({ font, ...LINEARIZED });
    const text = ascii(linearized, 0, 2_000);
    const l = Number(/\/L (\d+)/.exec(text)?.[1]);
    expect(text).toMatch(/^%PDF-1\.7\n%....\n\d+ 0 obj\n<< \/Linearized 1 /);
    expect(l).toBe(linearized.length);
    const firstXref = text.indexOf('xref\n');
    expect(startxref(linearized)).toBe(firstXref);
    expect(section(linearized, firstXref).prev).toBeGreaterThan(linearized.length - 100_000);

    const updated = makeBook({ font, ...UPDATED, pages: 40, targetBytes: 0 });
    const last = section(updated, startxref(updated));
    expect(last.kind).toBe('stream');
    expect(section(updated, last.prev).kind).toBe('stream');
  });

  it('an encrypted book asks pdf.js for a password', async () => {
    await expect(pdfJsFacts(makeBook(small({ encrypted: true })))).rejects.toMatchObject({ name: 'PasswordException' });
  });
});

describe('stampUpdate: each cross-reference form', () => {
  const forms: [string, Partial<BookSpec>, 'table' | 'stream'][] = [
    ['classic table', { xref: 'table' }, 'table'],
    [
      'xref stream over object streams, predictor 12',
      { xref: 'stream', predictor: true, perObjectStream: 20 },
      'stream',
    ],
    ['xref stream over object streams, no predictor', { xref: 'stream', perObjectStream: 100 }, 'stream'],
    ['hybrid (/XRefStm, pages in object streams)', { xref: 'hybrid', perObjectStream: 20 }, 'table'],
    ['linearized', { xref: 'linearized', targetBytes: 300_000 }, 'table'],
    ['earlier update, classic table', { xref: 'table', earlierUpdate: true }, 'table'],
    ['earlier update, xref stream', { xref: 'stream', predictor: true, earlierUpdate: true }, 'stream'],
    ['earlier update, hybrid', { xref: 'hybrid', earlierUpdate: true }, 'table'],
    ['earlier update, linearized', { xref: 'linearized', earlierUpdate: true }, 'table'],
    ['indirect stream lengths, classic table', { xref: 'table', indirectLengths: true, earlierUpdate: true }, 'table'],
    [
      'indirect stream lengths, object streams',
      { xref: 'stream', indirectLengths: true, earlierUpdate: true },
      'stream',
    ],
    ['indirect stream lengths, hybrid', { xref: 'hybrid', indirectLengths: true }, 'table'],
  ];

  it.each(forms)('%s: appends a section of the same kind chained to the last one', async (_name, spec, kind) => {
    const original = makeBook(small(spec));
    expect(() => checkPdf(original, inflate)).not.toThrow();
    const copy = await stampAndCheck(original);
    const newest = section(copy, startxref(copy));
    expect(newest.kind).toBe(kind);
    expect(newest.prev).toBe(startxref(original));
    expect(startxref(copy)).toBeGreaterThanOrEqual(original.length);
  });

  it('keeps the earlier update: page 1 as rewritten there, the new Title', async () => {
    const original = makeBook(small({ xref: 'stream', earlierUpdate: true }));
    const copy = await stampAndCheck(original);
    const read = await pdfJsFacts(copy);
    expect(read.title).toBe('Write Your Book, second printing');
    expect(read.page1Text).toContain('Second printing, 2026');
  });

  it.each(['UPDATED', 'LINEARIZED', 'HYBRID'] as const)('the %s preset', async (name) => {
    const preset = { UPDATED, LINEARIZED, HYBRID }[name];
    await stampAndCheck(makeBook({ font, ...preset }));
  });

  it('REAL_BOOK (~20 MB, 1,500 pages)', async () => {
    const original = makeBook({ font, ...REAL_BOOK });
    const copy = await stampAndCheck(original);
    expect(copy.length - original.length).toBeLessThan(64_000);
    expect(section(copy, startxref(copy)).kind).toBe('stream');
  });

  it.each([
    ['a line end', '\r\n'],
    ['NULs of a transfer', '\n\0\0\0\0\0\0\0\0'],
  ])(
    'bytes after the end-of-file marker (%s): the update still chains to the last section',
    async (_name, afterEof) => {
      for (const xref of ['table', 'stream'] as XrefForm[]) {
        const clean = makeBook(small({ xref }));
        const original = makeBook(small({ xref, afterEof }));
        const copy = await stampAndCheck(original);
        expect(section(copy, startxref(copy)).prev).toBe(startxref(clean));
      }
    },
  );

  it('stamps its own output again: two updates, both chained', async () => {
    for (const xref of ['table', 'stream'] as XrefForm[]) {
      const original = makeBook(small({ xref }));
      const once = stamped(original);
      const second = 'Licensed to second.reader@example.com on 2026-12-01';
      const twice = stamped(once, second);
      await secondReaderCheck(once, twice, second);
      expect(section(twice, startxref(twice)).prev).toBe(startxref(once));
      expect((await upright(twice, second)).upright).toBe(true);
    }
  });

  it('keeps the /ID first string and gives the update a new second one', () => {
    for (const xref of ['table', 'stream'] as XrefForm[]) {
      const original = makeBook(small({ xref }));
      const ids = (bytes: Uint8Array) =>
        /\/ID\s*\[\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/.exec(dictAt(bytes, startxref(bytes)));
      const before = ids(original);
      const after = ids(stamped(original));
      expect(before).not.toBeNull();
      expect(after?.[1]?.toLowerCase()).toBe(before?.[1]?.toLowerCase());
      expect(after?.[2]?.toLowerCase()).not.toBe(before?.[2]?.toLowerCase());
      expect(after?.[2]).toHaveLength(32);
    }
  });
});

describe('stampUpdate: page 1 as the page tree gives it', () => {
  it.each(['stream', 'array', 'indirect-array', 'none'] as ContentsForm[])(
    'page 1 /Contents as %s (table and xref stream)',
    async (contents) => {
      for (const xref of ['table', 'stream'] as XrefForm[]) {
        const original = makeBook(small({ xref, contents }));
        const copy = await stampAndCheck(original);
        if (contents !== 'none') expect((await pdfJsFacts(copy)).page1Text).toContain('Write Your Book');
      }
    },
  );

  const rotations: Rotation[] = [0, 90, 180, 270];
  const placements: Placement[] = ['root', 'parent', 'page1'];
  it.each(rotations.flatMap((angle) => placements.map((on) => [angle, on] as const)))(
    '/Rotate %i on %s: the line is upright at the foot of the page as shown',
    async (angle, on) => {
      const original = makeBook(small({ rotate: { angle, on } }));
      const copy = await stampAndCheck(original);
      const shown = await upright(copy, line);
      expect(shown.rotation).toBe(angle);
    },
  );

  it.each(placements)('an inherited CropBox (on %s) with /Rotate 90: the line is inside the crop', async (on) => {
    for (const xref of ['table', 'stream'] as XrefForm[]) {
      const original = makeBook(
        small({ xref, cropBox: { box: [36, 36, 396, 612], on }, rotate: { angle: 90, on: 'root' } }),
      );
      const copy = await stampAndCheck(original);
      const shown = await upright(copy, line);
      expect([shown.pageWidth, shown.pageHeight]).toEqual([576, 360]);
    }
  });

  it('a MediaBox whose origin is not 0 0, and a CropBox on page 1 with /Rotate 270 there', async () => {
    const original = makeBook(
      small({
        xref: 'stream',
        mediaBox: [100, 200, 532, 848],
        cropBox: { box: [120, 220, 512, 828], on: 'page1' },
        rotate: { angle: 270, on: 'page1' },
      }),
    );
    await stampAndCheck(original);
  });

  it('page 1 leaves its graphics state changed (a 2x matrix, invisible text mode): the line is still drawn as asked', async () => {
    for (const xref of ['table', 'stream'] as XrefForm[]) {
      await stampAndCheck(makeBook(small({ xref, page1LeavesState: true })));
    }
  });

  it.each(['direct', 'indirect'] as const)('page 1 with resources of its own (%s)', async (page1Resources) => {
    for (const xref of ['table', 'stream'] as XrefForm[]) {
      await stampAndCheck(makeBook(small({ xref, page1Resources })));
    }
  });

  it('a book of one page, and a deep tree (Kids of 2)', async () => {
    await stampAndCheck(makeBook(small({ pages: 1, chapters: 1 })));
    await stampAndCheck(makeBook(small({ pages: 40, fanout: 2, xref: 'stream' })));
  });
});

describe('the address', () => {
  it("measures it with Helvetica's own widths (pdf-lib's metrics as the reference)", async () => {
    const helvetica = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
    const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
    for (const ch of printable) {
      expect(helveticaWidth(winAnsiBytes(ch)), ch).toBeCloseTo(helvetica.widthOfTextAtSize(ch, 1), 6);
    }
  });

  it('keeps Latin-1 letters and shows others as "?"', async () => {
    const original = makeBook(small({ xref: 'stream' }));
    const latin = 'Licensed to zoë.müller@example.com on 2026-11-26';
    await stampAndCheck(original, latin);
    const other = 'Licensed to \u0141ukasz@\u4f8b.jp on 2026-11-26';
    const copy = stamped(original, other);
    await secondReaderCheck(original, copy, 'Licensed to ?ukasz@?.jp on 2026-11-26');
  });
});

describe('checkPdf', () => {
  const reason = (bytes: Uint8Array): PdfProblemReason | 'none' | string => {
    try {
      checkPdf(bytes, inflate);
      return 'none';
    } catch (error) {
      return error instanceof PdfProblem ? error.reason : `not a PdfProblem: ${String(error)}`;
    }
  };

  it('accepts every structure', () => {
    for (const xref of ['table', 'stream', 'hybrid', 'linearized'] as XrefForm[]) {
      expect(reason(makeBook(small({ xref })))).toBe('none');
      expect(reason(makeBook(small({ xref, earlierUpdate: true })))).toBe('none');
    }
  });

  it('refuses an encrypted PDF (a table or a stream trailer)', () => {
    expect(reason(makeBook(small({ xref: 'table', encrypted: true })))).toBe('encrypted');
    expect(reason(makeBook(small({ xref: 'stream', encrypted: true })))).toBe('encrypted');
  });

  it('refuses what is not a PDF', () => {
    expect(reason(notPdf())).toBe('not_pdf');
    expect(reason(new Uint8Array())).toBe('not_pdf');
  });

  it('refuses a PDF cut short (no startxref at its end)', () => {
    for (const xref of ['table', 'stream', 'hybrid', 'linearized'] as XrefForm[]) {
      expect(reason(damagedPdf(makeBook(small({ xref })), 'truncated'))).toBe('damaged');
    }
  });

  it('refuses a whole-looking file with no objects to rebuild from', () => {
    const text = '%PDF-1.7\n% nothing here\nstartxref\n9\n%%EOF\n';
    expect(reason(Uint8Array.from(text, (c) => c.charCodeAt(0)))).toBe('damaged');
  });
});

/** `bytes` with one byte taken out at `at`: every offset after it is one too far, as after a careless edit. */
function withoutByte(bytes: Uint8Array, at: number): Uint8Array {
  const out = new Uint8Array(bytes.length - 1);
  out.set(bytes.subarray(0, at));
  out.set(bytes.subarray(at + 1), at);
  return out;
}

describe('stampUpdate: cross-references that cannot be followed, rebuilt as readers do', () => {
  it.each(['table', 'stream', 'hybrid', 'linearized'] as XrefForm[])(
    '%s: startxref into garbage: stamped, with a whole new section and no /Prev',
    async (xref) => {
      const damaged = damagedPdf(makeBook(small({ xref })), 'startxref');
      expect(xrefProblems(damaged)).not.toEqual([]);
      const copy = await stampAndCheck(damaged);
      expect(section(copy, startxref(copy)).prev).toBeNaN();
    },
  );

  it.each(['table', 'stream'] as XrefForm[])(
    '%s, with an earlier update: a byte lost before the objects shifts every offset',
    async (xref) => {
      const good = makeBook(small({ xref, earlierUpdate: true }));
      const header = ascii(good, 0, 64).indexOf('\n') + 1;
      const shifted = withoutByte(good, header);
      expect(xrefProblems(shifted)).not.toEqual([]);
      const copy = await stampAndCheck(shifted);
      expect((await pdfJsFacts(copy)).pages).toBe(30);
    },
  );
});
