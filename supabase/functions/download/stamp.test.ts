// Stamping as the function does it, on files made at run time: each stamped copy is opened with
// a parser and must be valid, carry the licence line as text on page 1 (or as the first page of
// the spine) and keep the bookmarks, Title and Author.
import { describe, expect, it } from 'vitest';
import { chapterTitles, makeEpub, makePdf } from './fixtures';
import { licenceLine, stampEpub, stampKind, stampPdf as stampParts } from './stamp';

/** The stamped copy as one file, as Storage keeps it. */
const stampPdf = async (bytes: Uint8Array, text: string) => {
  const parts = stampParts(bytes, text);
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  parts.reduce((at, part) => (whole.set(part, at), at + part.length), 0);
  return await Promise.resolve(whole);
};
import { epubFacts, pdfFacts, pdfPageText } from './test-support';

const line = licenceLine('reader.name+tag@example.com', new Date('2026-11-26T12:00:00Z'));

describe('licenceLine', () => {
  it('names the buyer and the day', () => {
    expect(line).toBe('Licensed to reader.name+tag@example.com on 2026-11-26');
  });
});

describe('stampKind', () => {
  it('stamps PDFs and EPUBs, by type or extension, and nothing else', () => {
    expect(stampKind('a/b/c.pdf', null)).toBe('pdf');
    expect(stampKind('a/b/c.bin', 'application/pdf')).toBe('pdf');
    expect(stampKind('a/b/c.EPUB', null)).toBe('epub');
    expect(stampKind('a/b/c.mobi', 'application/x-mobipocket-ebook')).toBeNull();
    expect(stampKind('a/b/c.mp3', 'audio/mpeg')).toBeNull();
  });
});

describe('stampPdf', () => {
  it('puts the line on page 1 as text and keeps pages, bookmarks, Title and Author', async () => {
    const original = await makePdf({ pages: 30, bytes: 300_000, title: 'Write Your Book', author: 'Jo Author' });
    const before = await pdfFacts(original);
    expect(before.outline).toEqual(chapterTitles(12));
    expect(await pdfPageText(original, 0)).not.toContain('Licensed to');

    const stamped = await stampPdf(original, line);
    const after = await pdfFacts(stamped);
    expect(after).toEqual({ title: 'Write Your Book', author: 'Jo Author', pages: 30, outline: chapterTitles(12) });
    expect(await pdfPageText(stamped, 0)).toContain(line);
    expect(await pdfPageText(stamped, 0)).toContain('Page 1');
    expect(await pdfPageText(stamped, 1)).not.toContain('Licensed to');
  });

  it('shows characters Helvetica cannot draw as "?" rather than failing', async () => {
    const stamped = await stampPdf(await makePdf({ pages: 1, bytes: 10_000 }), 'Licensed to 読者@example.com');
    expect(await pdfPageText(stamped, 0)).toContain('Licensed to ??@example.com');
  });

  it('refuses something that is not a PDF', async () => {
    await expect(stampPdf(new TextEncoder().encode('not a pdf'), line)).rejects.toThrow();
  });
});

describe('stampEpub', () => {
  it('adds a licence page first in the spine and keeps the rest', () => {
    const original = epubFacts(makeEpub(3));
    const stamped = epubFacts(stampEpub(makeEpub(3), line));
    expect(stamped.first).toBe('mimetype');
    expect(stamped.mimetype).toBe('application/epub+zip');
    expect(stamped.spine).toEqual(['yyc-licence.xhtml', ...original.spine]);
    expect(stamped.pages[0]).toContain(line);
    expect(stamped.pages.slice(1)).toEqual(original.pages);
  });

  it('escapes the address in the page', () => {
    const stamped = epubFacts(stampEpub(makeEpub(1), 'Licensed to "a<b>"@example.com'));
    expect(stamped.pages[0]).toContain('Licensed to &quot;a&lt;b&gt;&quot;@example.com');
  });

  it('refuses a zip that is not an EPUB', () => {
    expect(() => stampEpub(new Uint8Array([0x50, 0x4b, 5, 6, ...new Array<number>(18).fill(0)]), line)).toThrow();
  });
});
