import { describe, expect, it } from 'vitest';
import { makeEpub, makePdf, makeSampleFile, makeSilentMp3, mediaFile, MIME_BY_EXTENSION } from '../sample-files.mjs';

/** The top-level ISO-BMFF box types of an MP4, in order (32-bit sizes: the file is small). */
function topLevelBoxes(mp4: Buffer): string[] {
  const types: string[] = [];
  for (let at = 0; at + 8 <= mp4.length; at += mp4.readUInt32BE(at)) types.push(mp4.toString('latin1', at + 4, at + 8));
  return types;
}

/**
 * An MP3's playing time, by walking its frames after the ID3v2 tag: MPEG-1 or 2 Layer III,
 * whose frame is 144 (MPEG-1) or 72 (MPEG-2) x bitrate / sample rate bytes plus padding.
 */
function mp3Seconds(mp3: Buffer): number {
  let at = mp3.toString('latin1', 0, 3) === 'ID3' ? 10 + [6, 7, 8, 9].reduce((n, i) => n * 128 + mp3[i]!, 0) : 0;
  let seconds = 0;
  while (at + 4 <= mp3.length && mp3[at] === 0xff && (mp3[at + 1]! & 0xe0) === 0xe0) {
    const mpeg1 = (mp3[at + 1]! & 0x18) === 0x18;
    const kbps = (
      mpeg1
        ? [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        : [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
    )[mp3[at + 2]! >> 4]!;
    const rate = (mpeg1 ? [44100, 48000, 32000] : [22050, 24000, 16000])[(mp3[at + 2]! >> 2) & 3]!;
    at += Math.floor(((mpeg1 ? 144 : 72) * kbps * 1000) / rate) + ((mp3[at + 2]! >> 1) & 1);
    seconds += (mpeg1 ? 1152 : 576) / rate;
  }
  return at === mp3.length ? seconds : NaN;
}

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

  it('seed media from the committed files in media/: playable MP4, its captions, a 75-second MP3', () => {
    expect(MIME_BY_EXTENSION).toMatchObject({ mp4: 'video/mp4', m4a: 'audio/mp4', vtt: 'text/vtt', mp3: 'audio/mpeg' });
    const masterclass = { tier: 'accelerated', slug: 'masterclass' };
    const video = makeSampleFile('masterclass-welcome.mp4', masterclass);
    expect(video.equals(mediaFile('masterclass-welcome.mp4'))).toBe(true);
    const boxes = topLevelBoxes(video);
    expect(boxes[0]).toBe('ftyp');
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat')); // +faststart: plays while downloading
    expect(makeSampleFile('masterclass-welcome.vtt', masterclass).toString('utf8')).toMatch(
      /^WEBVTT\n\n00:00:00\.000 --> 00:00:04\.000\nWelcome to the Yes, You Can! masterclass\.\n\n/,
    );
    const session = makeSampleFile('session-1-called-to-write.mp3', { tier: 'foundation', slug: 'scripture-audio' });
    expect(session.equals(mediaFile('audio-session.mp3'))).toBe(true);
    // Long enough to seek to 1:00 and still be playing.
    expect(mp3Seconds(session)).toBeGreaterThan(74);
    expect(mp3Seconds(session)).toBeLessThan(76);
  });
});
