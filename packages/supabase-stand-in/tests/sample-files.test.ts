import { describe, expect, it } from 'vitest';
import { makeEpub, makePdf, makeSilentMp3 } from '../sample-files.mjs';

describe('sample files', () => {
  it('are structurally valid PDF, EPUB and MP3', () => {
    const pdf = makePdf('T', [['a'], ['b']]).toString('latin1');
    const xref = Number(/startxref\n(\d+)/.exec(pdf)?.[1]);
    expect(pdf.slice(xref, xref + 4)).toBe('xref');
    // Each xref entry points at its "n 0 obj".
    const entries = pdf
      .slice(xref)
      .split('\n')
      .slice(3)
      .filter((l) => / n $/.test(l));
    entries.forEach((line, i) => expect(pdf.slice(Number(line.slice(0, 10))).startsWith(`${i + 1} 0 obj`)).toBe(true));
    const epub = makeEpub('T', [{ heading: 'h', paragraphs: ['p'] }]);
    expect(epub.readUInt32LE(0)).toBe(0x04034b50);
    expect(epub.readUInt16LE(8)).toBe(0); // mimetype stored, uncompressed
    expect(epub.subarray(30, 58).toString()).toBe('mimetypeapplication/epub+zip');
    const mp3 = makeSilentMp3(3);
    expect(mp3.length % 208).toBe(0);
    expect((mp3.length / 208) * (1152 / 44100)).toBeGreaterThanOrEqual(3);
  });
});
