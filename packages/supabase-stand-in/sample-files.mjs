// @ts-check
// Sample files for the private `resources` bucket. Documents are generated: a small multi-page
// PDF and a valid EPUB (a zip whose first entry is the stored `mimetype`). Media are committed in
// media/ (made once with ffmpeg, media/README.md), because playable H.264, AAC and MP3 cannot be
// written by hand: every .mp3 sample is the one spoken session, every .mp4 the welcome video and
// every .vtt its captions. Which files go in which folder is src/content/resource-folders.json,
// the one list the site's resource cards are built on too.
import { readFileSync } from 'node:fs';
import { crc32 as zlibCrc32 } from 'node:zlib';
import folders from '../../src/content/resource-folders.json' with { type: 'json' };

/** `{ tier, slug, sampleFiles }` of each resource card (src/content/resource-folders.json). */
export const sampleResourceFiles = folders;

export const MIME_BY_EXTENSION = {
  pdf: 'application/pdf',
  epub: 'application/epub+zip',
  mobi: 'application/x-mobipocket-ebook',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  m4a: 'audio/mp4',
  vtt: 'text/vtt',
};

/** The committed media file each media extension's samples are seeded from. */
const MEDIA_BY_EXTENSION = {
  mp3: 'audio-session.mp3',
  mp4: 'masterclass-welcome.mp4',
  vtt: 'masterclass-welcome.vtt',
};

/**
 * The bytes of a committed file in media/.
 * @param {string} name
 */
export function mediaFile(name) {
  return readFileSync(new URL(`./media/${name}`, import.meta.url));
}

/**
 * "book-planning-worksheet.pdf" -> "Book Planning Worksheet".
 * @param {string} file
 */
export function titleOf(file) {
  return file
    .replace(/\.[^.]+$/, '')
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/** @param {string} text */
function pdfEscape(text) {
  return text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?');
}

/**
 * A valid PDF 1.4 with one page per entry of `pages` (each a list of text lines), Helvetica,
 * A4, with a correct cross-reference table.
 * @param {string} title
 * @param {string[][]} pages
 */
export function makePdf(title, pages) {
  /** @type {string[]} */
  const objects = [];
  const pageCount = pages.length;
  // 1 catalog, 2 pages tree, 3 font, 4 info, then (page, content) pairs.
  const pageIds = pages.map((_, i) => 5 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageCount} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  objects[4] = `<< /Title (${pdfEscape(title)}) /Producer (Yes, You Can! local stand-in) >>`;
  pages.forEach((lines, i) => {
    const content = [
      'BT',
      '/F1 22 Tf',
      '72 770 Td',
      `(${pdfEscape(title)}) Tj`,
      '/F1 12 Tf',
      '0 -36 Td',
      ...lines.flatMap((line) => [`(${pdfEscape(line)}) Tj`, '0 -18 Td']),
      `(Page ${i + 1} of ${pageCount}) Tj`,
      'ET',
    ].join('\n');
    const pageId = 5 + i * 2;
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
  });
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  /** @type {number[]} */
  const offsets = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(out, 'latin1');
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** @param {Buffer} buf */
function crc32(buf) {
  if (typeof zlibCrc32 === 'function') return zlibCrc32(buf) >>> 0;
  let c = 0xffffffff;
  for (const byte of buf) c = /** @type {number} */ (CRC_TABLE[(c ^ byte) & 0xff]) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * A store-only (uncompressed) zip of `entries`, in order; valid for EPUB, whose first entry
 * must be an uncompressed `mimetype`.
 * @param {{ name: string, data: Buffer }[]} entries
 */
export function makeZip(entries) {
  /** @type {Buffer[]} */
  const chunks = [];
  /** @type {Buffer[]} */
  const central = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBuf = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(10, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x5b61, 12); // date 2025-11-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    local.writeUInt16LE(0, 28);
    chunks.push(local, nameBuf, data);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(10, 6);
    cd.writeUInt16LE(0x0800, 8);
    cd.writeUInt16LE(0, 10);
    cd.writeUInt16LE(0, 12);
    cd.writeUInt16LE(0x5b61, 14);
    cd.writeUInt32LE(crc, 16);
    cd.writeUInt32LE(data.length, 20);
    cd.writeUInt32LE(data.length, 24);
    cd.writeUInt16LE(nameBuf.length, 28);
    cd.writeUInt32LE(offset, 42);
    central.push(cd, nameBuf);
    offset += 30 + nameBuf.length + data.length;
  }
  const cdBuf = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cdBuf.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, cdBuf, end]);
}

/**
 * A minimal valid EPUB 3 with a navigation document and `chapters` as XHTML pages.
 * @param {string} title
 * @param {{ heading: string, paragraphs: string[] }[]} chapters
 */
export function makeEpub(title, chapters) {
  /** @param {string} s */
  const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  /** @param {string} heading @param {string} body */
  const xhtml = (heading, body) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en"><head><title>${esc(heading)}</title></head><body><h1>${esc(heading)}</h1>${body}</body></html>\n`;
  const files = chapters.map((c, i) => ({ id: `ch${i + 1}`, href: `chapter-${i + 1}.xhtml`, ...c }));
  const opf = `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="bookid">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="bookid">urn:uuid:6f1d0c2e-2a5b-4e8e-9a59-0c5e6b2f7a11</dc:identifier>
    <dc:title>${esc(title)}</dc:title>
    <dc:language>en</dc:language>
    <meta property="dcterms:modified">2025-11-01T00:00:00Z</meta>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
${files.map((f) => `    <item id="${f.id}" href="${f.href}" media-type="application/xhtml+xml"/>`).join('\n')}
  </manifest>
  <spine>
${files.map((f) => `    <itemref idref="${f.id}"/>`).join('\n')}
  </spine>
</package>
`;
  const nav = xhtml(
    'Contents',
    `<nav xmlns:epub="http://www.idpf.org/2007/ops" epub:type="toc"><ol>${files.map((f) => `<li><a href="${f.href}">${esc(f.heading)}</a></li>`).join('')}</ol></nav>`,
  ).replace('<html ', '<html xmlns:epub="http://www.idpf.org/2007/ops" ');
  return makeZip([
    { name: 'mimetype', data: Buffer.from('application/epub+zip') },
    {
      name: 'META-INF/container.xml',
      data: Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?>\n<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>\n',
      ),
    },
    { name: 'OEBPS/content.opf', data: Buffer.from(opf) },
    { name: 'OEBPS/nav.xhtml', data: Buffer.from(nav) },
    ...files.map((f) => ({
      name: `OEBPS/${f.href}`,
      data: Buffer.from(xhtml(f.heading, f.paragraphs.map((p) => `<p>${esc(p)}</p>`).join(''))),
    })),
  ]);
}

/**
 * `seconds` of silence as MPEG-1 Layer III, 64 kbit/s, 44.1 kHz, mono: every frame is a
 * valid header followed by zeroed side info (no Huffman data), which decoders play as silence.
 */
export function makeSilentMp3(seconds = 3) {
  const frameBytes = Math.floor((144 * 64000) / 44100); // 208
  const frames = Math.ceil((seconds * 44100) / 1152);
  const frame = Buffer.alloc(frameBytes);
  frame.set([0xff, 0xfb, 0x50, 0xc0]); // sync, MPEG-1, Layer III, no CRC; 64 kbit/s, 44.1 kHz; mono
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/**
 * The bytes of one sample file, by its extension.
 * @param {string} file
 * @param {{ tier: string, slug: string }} card
 */
export function makeSampleFile(file, card) {
  const title = titleOf(file);
  const ext = file.split('.').pop();
  if (ext === 'pdf') {
    return makePdf(title, [
      [
        `A sample from the "${card.slug}" resources (${card.tier} tier).`,
        'Generated by the local Supabase stand-in so a fresh clone',
        'has real files to download.',
      ],
      ['Write a little every day.', 'Perfect is not required; faithful is.'],
      ['You can do this. Yes, you can!'],
    ]);
  }
  if (ext === 'epub') {
    return makeEpub(title, [
      {
        heading: 'Called to Write',
        paragraphs: ['A sample chapter generated by the local stand-in.', 'Write a little every day.'],
      },
      { heading: 'Finishing Well', paragraphs: ['Yes, you can finish your book.'] },
    ]);
  }
  if (ext === 'mp3' || ext === 'mp4' || ext === 'vtt') return mediaFile(MEDIA_BY_EXTENSION[ext]);
  throw new Error(`no sample generator for ${file}`);
}
