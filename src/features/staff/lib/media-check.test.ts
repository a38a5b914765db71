import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkMediaFile, type MediaFile } from './media-check';

// Real files from other projects' test suites, and a few made with ffmpeg: where each comes
// from is media-fixtures/README.md.
const fixtures = resolve(__dirname, 'media-fixtures');
const bytesOf = (path: string): Uint8Array => new Uint8Array(readFileSync(resolve(fixtures, path)));

/** A file that can only be read by slices, and counts the bytes read: it has no arrayBuffer(). */
function watched(bytes: Uint8Array, name: string, type = '') {
  const file = new File([bytes as BlobPart], name, { type });
  let read = 0;
  const watchedFile: MediaFile = {
    name,
    type,
    size: file.size,
    slice: (start?: number, end?: number) => {
      const piece = file.slice(start, end);
      read += piece.size;
      return piece;
    },
  };
  return { file: watchedFile, bytesRead: () => read };
}

/** Checks the fixture at `path` under `name` (its own by default), reading it by slices only. */
async function check(path: string, name = basename(path), type = '') {
  const { file, bytesRead } = watched(bytesOf(path), name, type);
  const result = await checkMediaFile(file);
  // The index and headers only: never the whole of a file over a few kilobytes.
  expect(bytesRead()).toBeLessThanOrEqual(Math.max(16_384, file.size / 4));
  return result;
}

const messageOf = async (path: string, name?: string) => {
  const result = await check(path, name);
  if (!result || result.ok) throw new Error(`${path} passed: ${JSON.stringify(result)}`);
  return result.message;
};

/**
 * A file of `size` bytes held as `pieces` at their offsets, zeros elsewhere: a multi-gigabyte
 * MP4 for the test, of which only the slices asked for are made (at most 1 MiB each).
 */
function sparseFile(name: string, size: number, pieces: [offset: number, bytes: Uint8Array][]) {
  let read = 0;
  const file: MediaFile = {
    name,
    type: '',
    size,
    slice: (start = 0, end = size) => {
      const from = Math.max(0, start);
      const to = Math.min(size, end);
      if (to - from > 1 << 20) throw new Error(`read ${to - from} bytes at once`);
      const out = new Uint8Array(Math.max(0, to - from));
      for (const [offset, bytes] of pieces) {
        for (let i = Math.max(from, offset); i < Math.min(to, offset + bytes.length); i++)
          out[i - from] = bytes[i - offset]!;
      }
      read += out.length;
      return new Blob([out]);
    },
  };
  return { file, bytesRead: () => read };
}

/** A box header: 32-bit size, or size 1 and a 64-bit largesize when `large`. */
function boxHeader(type: string, size: number, large = false): Uint8Array {
  const header = new Uint8Array(large ? 16 : 8);
  const view = new DataView(header.buffer);
  view.setUint32(0, large ? 1 : size);
  header.set(new TextEncoder().encode(type), 4);
  if (large) view.setBigUint64(8, BigInt(size));
  return header;
}

const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  parts.reduce((at, part) => (out.set(part, at), at + part.length), 0);
  return out;
};

// minimal.mp4 (mozilla/mp4parse-rust): ftyp (32 bytes), then moov (1273), free, mdat.
const minimal = bytesOf('mp4parse-rust/minimal.mp4');
const minimalFtyp = minimal.subarray(0, 32);
const minimalMoov = minimal.subarray(32, 32 + 1273);
const minimalMoovBody = minimalMoov.subarray(8);

const FASTSTART = 'ffmpeg -i in.mp4 -c copy -movflags +faststart out.mp4';
const REENCODE = 'ffmpeg -i in.mp4 -c:v libx264 -pix_fmt yuv420p -c:a aac -movflags +faststart out.mp4';
const M4A_REENCODE = 'ffmpeg -i in.m4a -vn -c:a aac -movflags +faststart out.m4a';
const INDEX_AT_END = "This file's index is at the end, so it cannot start playing until it has fully downloaded.";

describe('checkMediaFile: MP4', () => {
  it('passes H.264 video with AAC sound whose index comes first, as video/mp4 whatever the browser said', async () => {
    expect(await check('mp4parse-rust/minimal.mp4')).toEqual({ ok: true, kind: 'video', contentType: 'video/mp4' });
    expect(await check('mp4parse-rust/minimal.mp4', 'Welcome Talk.MP4', 'application/octet-stream')).toEqual({
      ok: true,
      kind: 'video',
      contentType: 'video/mp4',
    });
  });

  it.each(['mp4parse-rust/h264_white_frame_sar_16_9.mp4', 'ffmpeg/h264-aac-moov-at-end.mp4'])(
    'refuses %s, whose index is after its media, with the one command that moves it',
    async (path) => {
      const message = await messageOf(path);
      expect(message).toContain(INDEX_AT_END);
      expect(message.endsWith(`for example with: ${FASTSTART}`)).toBe(true);
    },
  );

  it.each([
    ['mp4parse-rust/hevc_white_frame.mp4', 'This video is encoded as HEVC (H.265)'],
    ['mp4parse-rust/tiny_av1.mp4', 'This video is encoded as AV1'],
    ['ffmpeg/vp9-opus.mp4', 'This video is encoded as VP9'],
    ['mp4parse-rust/bbb_sunflower_QCIF_30fps_mp4v_noaudio_1f.mp4', 'This video is encoded as MPEG-4 Part 2'],
    ['mp4parse-rust/video_colr_nclx_rgb.mp4', 'This video is encoded as H.264 High 4:4:4'],
    ['mediabunny/ac3.mp4', "This video's sound is encoded as Dolby Digital (AC-3)"],
  ])('refuses %s naming its codec and how to re-encode', async (path, start) => {
    const message = await messageOf(path);
    expect(message.startsWith(`${start}, which not every member's browser can play.`)).toBe(true);
    expect(message.endsWith(`Convert it to H.264 video with AAC sound, for example with: ${REENCODE}`)).toBe(true);
  });

  it('names the codec rather than the index position when both are wrong: the re-encoding fixes both', async () => {
    // hevc_white_frame.mp4 has its mdat before its moov too.
    expect(await messageOf('mp4parse-rust/hevc_white_frame.mp4')).not.toContain('index');
  });

  it('refuses an encrypted (Common Encryption) file', async () => {
    expect(await messageOf('mp4parse-rust/short-cenc.mp4')).toBe(
      'This file is copy-protected (encrypted), so it cannot be played on the site. Upload an unprotected copy.',
    );
  });

  it('refuses an MP4 with sound only, and passes the same file named .m4a', async () => {
    expect(await messageOf('mp4parse-rust/afconvert-aac-0.5s.mp4')).toBe(
      'This .mp4 file has no picture, only sound. Upload sound-only files as .m4a or .mp3.',
    );
    expect(await check('mp4parse-rust/afconvert-aac-0.5s.mp4', 'talk.m4a')).toEqual({
      ok: true,
      kind: 'audio',
      contentType: 'audio/mp4',
    });
  });

  it('refuses what is not an MP4 at all, saying what it looks like when it can', async () => {
    expect(await messageOf('music-metadata/notags.mp3', 'talk.mp4')).toBe(
      'This file is not an MP4 video, although its name ends in .mp4 (it looks like an MP3). Export it again as MP4 (H.264 video with AAC sound), then upload the new file.',
    );
    expect(await messageOf('vtt.js/webvtt-no-bom.vtt', 'talk.mp4')).toBe(
      'This file is not an MP4 video, although its name ends in .mp4. Export it again as MP4 (H.264 video with AAC sound), then upload the new file.',
    );
  });

  it('refuses a file cut short: inside its index, or before its index was reached', async () => {
    const damaged = watched(minimal.subarray(0, 600), 'cut.mp4').file;
    expect(await checkMediaFile(damaged)).toEqual({
      ok: false,
      message: expect.stringMatching(/damaged or incomplete/),
    });
    const head = bytesOf('mp4parse-rust/h264_white_frame_sar_16_9.mp4').subarray(0, 100);
    expect(await checkMediaFile(watched(head, 'cut.mp4').file)).toEqual({
      ok: false,
      message: expect.stringMatching(/^This file has no index .* so it is incomplete or damaged/),
    });
  });

  it('refuses an empty file', async () => {
    expect(await checkMediaFile(watched(new Uint8Array(0), 'empty.mp4').file)).toEqual({
      ok: false,
      message: 'This file is empty (0 bytes). Choose it again: it may not have finished copying.',
    });
  });
});

describe('checkMediaFile: large files and box sizes', () => {
  const FIVE_GIB = 5 * 2 ** 30;

  it('passes a 5 GiB MP4 whose media box has a 64-bit size, reading a few kilobytes of it', async () => {
    const mdat = boxHeader('mdat', FIVE_GIB, true);
    const moovEnd = 32 + minimalMoov.length;
    const { file, bytesRead } = sparseFile('long.mp4', moovEnd + FIVE_GIB, [
      [0, minimalFtyp],
      [32, minimalMoov],
      [moovEnd, mdat],
    ]);
    expect(await checkMediaFile(file)).toEqual({ ok: true, kind: 'video', contentType: 'video/mp4' });
    expect(bytesRead()).toBeLessThan(8_192);
  });

  it('finds the index after a 64-bit media box 5 GiB long, and refuses it as at the end', async () => {
    const mdat = boxHeader('mdat', FIVE_GIB, true);
    const { file, bytesRead } = sparseFile('long.mp4', 32 + FIVE_GIB + minimalMoov.length, [
      [0, minimalFtyp],
      [32, mdat],
      [32 + FIVE_GIB, minimalMoov],
    ]);
    expect(await checkMediaFile(file)).toEqual({ ok: false, message: expect.stringContaining(INDEX_AT_END) });
    expect(bytesRead()).toBeLessThan(8_192);
  });

  it('reads an index with a 64-bit header, and one whose size 0 runs to the end of the file', async () => {
    const large = concat(minimalFtyp, boxHeader('moov', 16 + minimalMoovBody.length, true), minimalMoovBody);
    expect(await checkMediaFile(watched(large, 'a.mp4').file)).toMatchObject({ ok: true, kind: 'video' });
    const toEnd = concat(minimalFtyp, boxHeader('moov', 0), minimalMoovBody);
    expect(await checkMediaFile(watched(toEnd, 'b.mp4').file)).toMatchObject({ ok: true, kind: 'video' });
  });

  it('takes a media box of size 0 as running to the end: an index after it is never reached', async () => {
    const bytes = concat(minimalFtyp, boxHeader('mdat', 0), new Uint8Array(64), minimalMoov);
    expect(await checkMediaFile(watched(bytes, 'c.mp4').file)).toEqual({
      ok: false,
      message: expect.stringMatching(/^This file has no index/),
    });
  });
});

describe('checkMediaFile: M4A', () => {
  it('passes AAC sound in MP4 as audio/mp4, whatever the browser guessed', async () => {
    for (const type of ['', 'audio/x-m4a', 'audio/m4a']) {
      expect(await check('music-metadata/testcase.m4a', 'testcase.m4a', type)).toEqual({
        ok: true,
        kind: 'audio',
        contentType: 'audio/mp4',
      });
    }
  });

  it('refuses an .m4a whose index is at the end, with the command for an .m4a', async () => {
    const message = await messageOf('music-metadata/apple-voice-memo.m4a');
    expect(message).toContain(INDEX_AT_END);
    expect(message.endsWith('ffmpeg -i in.m4a -c copy -movflags +faststart out.m4a')).toBe(true);
  });

  it.each([
    ['ffmpeg/alac.m4a', 'alac.m4a', 'Apple Lossless (ALAC)'],
    ['mp4parse-rust/sine-3s-xhe-aac-44khz-mono.mp4', 'sine.m4a', 'xHE-AAC'],
  ])('refuses %s naming its codec', async (path, name, codec) => {
    expect(await messageOf(path, name)).toBe(
      `This audio is encoded as ${codec}, which not every member's browser can play. Convert it to AAC, for example with: ${M4A_REENCODE}`,
    );
  });

  it('refuses an .m4a that has video in it', async () => {
    expect(await messageOf('mp4parse-rust/minimal.mp4', 'talk.m4a')).toBe(
      `This .m4a file also contains video. Upload videos as .mp4, or keep only the sound with: ${M4A_REENCODE}`,
    );
  });

  it('refuses an MP3 named .m4a', async () => {
    expect(await messageOf('music-metadata/id3v2-xheader.mp3', 'talk.m4a')).toMatch(
      /^This file is not an M4A audio file, although its name ends in \.m4a \(it looks like an MP3\)/,
    );
  });
});

describe('checkMediaFile: MP3', () => {
  it('passes an MP3 after an ID3v2.4 tag with an extended header, as audio/mpeg whatever the browser said', async () => {
    expect(await check('music-metadata/id3v2-xheader.mp3', 'talk.mp3', 'audio/mp3')).toEqual({
      ok: true,
      kind: 'audio',
      contentType: 'audio/mpeg',
    });
  });

  it('passes an MP3 without tags, whose first frame starts the file', async () => {
    expect(await check('music-metadata/notags.mp3')).toEqual({ ok: true, kind: 'audio', contentType: 'audio/mpeg' });
  });

  it('skips a tag megabytes long by its size, reading only its header', async () => {
    // A 3 MiB ID3v2.3 tag (as cover art makes them): its size as four 7-bit "syncsafe" bytes.
    const size = 3 << 20;
    const header = Uint8Array.from([
      0x49,
      0x44,
      0x33,
      3,
      0,
      0,
      (size >> 21) & 0x7f,
      (size >> 14) & 0x7f,
      (size >> 7) & 0x7f,
      size & 0x7f,
    ]);
    const bytes = concat(header, new Uint8Array(size).fill(0x41), bytesOf('music-metadata/notags.mp3'));
    const { file, bytesRead } = watched(bytes, 'cover.mp3');
    expect(await checkMediaFile(file)).toMatchObject({ ok: true });
    expect(bytesRead()).toBeLessThan(8_192);
  });

  it('refuses a tag with no sound after it', async () => {
    const tagged = bytesOf('music-metadata/id3v2-xheader.mp3');
    const tagEnd = 10 + [6, 7, 8, 9].reduce((n, i) => n * 128 + tagged[i]!, 0);
    expect(await checkMediaFile(watched(tagged.subarray(0, tagEnd), 'cut.mp3').file)).toEqual({
      ok: false,
      message:
        'This MP3 has its title and artist details but no sound after them: it is damaged or incomplete. Export it again.',
    });
  });

  it('refuses what is not an MP3, naming what it looks like', async () => {
    expect(await messageOf('music-metadata/testcase.m4a', 'talk.mp3')).toBe(
      'This file is not an MP3, although its name ends in .mp3 (it looks like an MP4 or M4A file). Convert it to MP3, for example with: ffmpeg -i in.wav -c:a libmp3lame -q:a 4 out.mp3',
    );
    const wav = new TextEncoder().encode('RIFF\x24\x08\x00\x00WAVEfmt ');
    expect(await checkMediaFile(watched(wav, 'talk.mp3').file)).toEqual({
      ok: false,
      message: expect.stringContaining('(it looks like a WAV recording)'),
    });
  });
});

describe('checkMediaFile: WebVTT', () => {
  // mozilla/vtt.js's file-layout tests: the parser finds cues in the first four, none in the rest.
  it.each(['webvtt-no-bom.vtt', 'webvtt-with-bom.vtt', 'webvtt-space.vtt', 'webvtt-tab.vtt'])(
    'passes %s as text/vtt',
    async (name) => {
      expect(await check(`vtt.js/${name}`)).toEqual({ ok: true, kind: 'captions', contentType: 'text/vtt' });
    },
  );

  it.each([
    'garbage-signature.vtt',
    'bad-double-webvtt.vtt',
    'newline-before-webvtt.vtt',
    'tab-after-bom-before-header.vtt',
    'blank-file-with-bom.vtt',
  ])('refuses %s', async (name) => {
    expect(await messageOf(`vtt.js/${name}`)).toBe(
      'This file is not WebVTT captions: a WebVTT file starts with the word WEBVTT on its first line. Save or export the captions as WebVTT (.vtt).',
    );
  });

  it('passes WEBVTT alone, or before a Windows line break', async () => {
    for (const text of ['WEBVTT', 'WEBVTT\r\n\r\n00:00.000 --> 00:01.000\r\nHello\r\n']) {
      expect(await checkMediaFile(watched(new TextEncoder().encode(text), 'a.vtt').file)).toMatchObject({ ok: true });
    }
    expect(await checkMediaFile(watched(new TextEncoder().encode('WEBVTTX\n'), 'a.vtt').file)).toMatchObject({
      ok: false,
    });
  });

  it('says SubRip captions must be converted, and UTF-16 text saved as UTF-8', async () => {
    const srt = new TextEncoder().encode('1\n00:00:00,000 --> 00:00:04,000\nWelcome.\n');
    expect(await checkMediaFile(watched(srt, 'captions.vtt').file)).toEqual({
      ok: false,
      message: expect.stringMatching(/It looks like SubRip \(\.srt\) captions; .*: ffmpeg -i in\.srt out\.vtt$/),
    });
    const utf16 = Uint8Array.from([0xff, 0xfe, ...[...'WEBVTT\n'].flatMap((c) => [c.charCodeAt(0), 0])]);
    expect(await checkMediaFile(watched(utf16, 'captions.vtt').file)).toEqual({
      ok: false,
      message: expect.stringMatching(/It is saved as UTF-16 text: save it again as UTF-8\.$/),
    });
  });
});

describe('checkMediaFile: other files', () => {
  it('leaves every other extension to the caller (null)', async () => {
    for (const name of ['guide.pdf', 'book.epub', 'book.mobi', 'talk.wav', 'README']) {
      expect(await checkMediaFile(watched(minimal, name).file)).toBeNull();
    }
  });
});

describe('checkMediaFile: the seed media', () => {
  // What `npm run dev` seeds (packages/supabase-stand-in/media, made with ffmpeg): what staff
  // see as examples must be what the check passes.
  const media = resolve(__dirname, '../../../../packages/supabase-stand-in/media');
  it.each([
    ['masterclass-welcome.mp4', 'video', 'video/mp4'],
    ['masterclass-welcome.vtt', 'captions', 'text/vtt'],
    ['audio-session.mp3', 'audio', 'audio/mpeg'],
  ])('passes %s', async (name, kind, contentType) => {
    const { file } = watched(new Uint8Array(readFileSync(resolve(media, name))), name);
    expect(await checkMediaFile(file)).toEqual({ ok: true, kind, contentType });
  });
});
