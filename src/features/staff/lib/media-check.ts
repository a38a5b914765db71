import { RESOURCE_TYPES } from '../../../../supabase/functions/_shared/resource-types';

/**
 * A check, in the browser, that a media file staff are about to upload will play on the site:
 * MP4 (H.264 video, AAC sound), M4A (AAC sound in MP4), MP3 and WebVTT captions. It reads only
 * the few slices it needs (box headers, the track descriptions, a tag's header): files can be
 * gigabytes, and nothing is sent before this answers. Messages are for staff, not engineers,
 * and where a file can be fixed they give the one ffmpeg command that fixes it.
 */

/** What the check needs of a file: a `File` has all of it. */
export type MediaFile = Pick<Blob, 'size' | 'slice'> & { name: string; type: string };

export type MediaKind = 'video' | 'audio' | 'captions';

export type MediaCheck = { ok: true; kind: MediaKind; contentType: string } | { ok: false; message: string };

/** Moves an MP4's index in front of its media without re-encoding. */
export const FASTSTART_COMMAND = 'ffmpeg -i in.mp4 -c copy -movflags +faststart out.mp4';
/**
 * Re-encodes to what every browser plays. `-pix_fmt yuv420p` because libx264 otherwise keeps a
 * 10-bit or 4:4:4 source's colour format (a phone's HDR video), which browsers cannot play.
 */
export const REENCODE_COMMAND = 'ffmpeg -i in.mp4 -c:v libx264 -pix_fmt yuv420p -c:a aac -movflags +faststart out.mp4';
/** The same two for an .m4a: the sound only, kept an .m4a. */
export const M4A_FASTSTART_COMMAND = 'ffmpeg -i in.m4a -c copy -movflags +faststart out.m4a';
export const M4A_REENCODE_COMMAND = 'ffmpeg -i in.m4a -vn -c:a aac -movflags +faststart out.m4a';
export const MP3_ENCODE_COMMAND = 'ffmpeg -i in.wav -c:a libmp3lame -q:a 4 out.mp3';
export const SRT_TO_VTT_COMMAND = 'ffmpeg -i in.srt out.vtt';

/**
 * The extensions this module checks, each with its kind and the content type it is uploaded
 * with whatever the browser guessed: the resource types' own entries (one list for the site).
 */
export const MEDIA_TYPES = {
  mp4: RESOURCE_TYPES.mp4,
  m4a: RESOURCE_TYPES.m4a,
  mp3: RESOURCE_TYPES.mp3,
  vtt: RESOURCE_TYPES.vtt,
} as const satisfies Record<string, { kind: MediaKind; contentType: string }>;

type MediaExtension = keyof typeof MEDIA_TYPES;

const EMPTY = 'This file is empty (0 bytes). Choose it again: it may not have finished copying.';
const DAMAGED =
  'This file looks damaged or incomplete (it may not have finished copying). Export or copy it again, then upload the new file.';
const NO_INDEX =
  'This file has no index (the part that says where its pictures and sound are), so it is incomplete or damaged. Export or copy it again, then upload the new file.';
const PROTECTED =
  'This file is copy-protected (encrypted), so it cannot be played on the site. Upload an unprotected copy.';

/**
 * Checks a file named .mp4, .m4a, .mp3 or .vtt (any case). Resolves to null for any other
 * extension: PDFs, EPUBs and the rest are not this module's business, and the caller's own
 * rules apply to them. A file that cannot be read at all rejects with the browser's error.
 */
export async function checkMediaFile(file: MediaFile): Promise<MediaCheck | null> {
  const extension = file.name.toLowerCase().split('.').pop() ?? '';
  if (!Object.hasOwn(MEDIA_TYPES, extension)) return null;
  const ext = extension as MediaExtension;
  const problem = file.size === 0 ? EMPTY : await problemOf(file, ext);
  const { kind, contentType } = MEDIA_TYPES[ext];
  return problem === null ? { ok: true, kind, contentType } : { ok: false, message: problem };
}

function problemOf(file: MediaFile, ext: MediaExtension): Promise<string | null> {
  if (ext === 'mp3') return mp3Problem(file);
  if (ext === 'vtt') return vttProblem(file);
  return isoProblem(file, ext);
}

// ---------------------------------------------------------------- reading

/** `length` bytes from `start`, or fewer at the end of the file; never more than asked. */
async function read(file: MediaFile, start: number, length: number): Promise<Uint8Array> {
  const end = Math.min(file.size, start + length);
  if (start >= end) return new Uint8Array(0);
  return new Uint8Array(await file.slice(start, end).arrayBuffer());
}

const byte = (bytes: Uint8Array, at: number): number => bytes[at] ?? 0;
const u16 = (bytes: Uint8Array, at: number): number => byte(bytes, at) * 0x100 + byte(bytes, at + 1);
const u32 = (bytes: Uint8Array, at: number): number => u16(bytes, at) * 0x10000 + u16(bytes, at + 2);
const ascii = (bytes: Uint8Array, at: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(at, at + length));
const startsWith = (bytes: Uint8Array, at: number, text: string): boolean => ascii(bytes, at, text.length) === text;

/**
 * What a file that is not the format its name says most likely is, as words for staff
 * ("a WebM video"), or null when it is nothing recognisable.
 */
function formatGuess(head: Uint8Array): string | null {
  if (startsWith(head, 4, 'ftyp')) return 'an MP4 or M4A file';
  if (startsWith(head, 0, '\x1a\x45\xdf\xa3')) return 'a WebM or MKV video';
  if (startsWith(head, 0, 'RIFF') && startsWith(head, 8, 'WAVE')) return 'a WAV recording';
  if (startsWith(head, 0, 'RIFF') && startsWith(head, 8, 'AVI ')) return 'an AVI video';
  if (startsWith(head, 0, 'FORM') && startsWith(head, 8, 'AIF')) return 'an AIFF recording';
  if (startsWith(head, 0, 'OggS')) return 'an Ogg file';
  if (startsWith(head, 0, 'fLaC')) return 'a FLAC recording';
  if (startsWith(head, 0, '%PDF')) return 'a PDF document';
  if (startsWith(head, 0, 'PK\x03\x04')) return 'a ZIP archive';
  if (startsWith(head, 0, 'ID3') || mpegAudioLayer(head, 0) === 3) return 'an MP3';
  if (byte(head, 0) === 0xff && (byte(head, 1) & 0xf6) === 0xf0) return 'AAC sound without a container (.aac)';
  return null;
}

// ---------------------------------------------------------------- MP4 and M4A (ISO-BMFF)

/** An ISO-BMFF box: its four-character type and where it, and its contents, lie in the file. */
interface Box {
  type: string;
  start: number;
  bodyStart: number;
  end: number;
}

/** The types a real MP4 can open with (QuickTime's `wide` and `free` included). */
const FIRST_BOX_TYPES = new Set(['ftyp', 'styp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pdin', 'uuid']);

/** Guards against a file made of countless tiny boxes before its index; real files have a handful. */
const MAX_BOXES = 10_000;

/**
 * The box whose header is at `at` in `bytes`, which hold the file from offset `base`: a 32-bit
 * size, a 64-bit `largesize` when that size is 1, or size 0 for "to the end of `limit`" (its
 * parent, or the file). Null when no well-formed header is there.
 */
function boxHeader(bytes: Uint8Array, at: number, base: number, limit: number): Box | null {
  if (at + 8 > bytes.length) return null;
  const type = ascii(bytes, at + 4, 4);
  if (!/^[\x20-\x7e]{4}$/.test(type)) return null;
  const start = base + at;
  let size = u32(bytes, at);
  let headerSize = 8;
  if (size === 1) {
    if (at + 16 > bytes.length) return null;
    size = u32(bytes, at + 8) * 2 ** 32 + u32(bytes, at + 12);
    headerSize = 16;
  } else if (size === 0) {
    size = limit - start;
  }
  if (size < headerSize) return null;
  return { type, start, bodyStart: start + headerSize, end: start + size };
}

/** The boxes directly inside `parent`, read header by header; null if any is malformed. */
async function childBoxes(file: MediaFile, parent: Pick<Box, 'bodyStart' | 'end'>): Promise<Box[] | null> {
  const boxes: Box[] = [];
  for (let offset = parent.bodyStart; offset + 8 <= parent.end;) {
    const box = boxHeader(await read(file, offset, 16), 0, offset, parent.end);
    if (!box || box.end > parent.end || boxes.length >= MAX_BOXES) return null;
    boxes.push(box);
    offset = box.end;
  }
  return boxes;
}

/**
 * The top-level `moov` (the index), and whether an `mdat` (the media) came before it. Walks the
 * top level header by header and stops at `moov`, so only a few small slices are read.
 */
async function findIndex(
  file: MediaFile,
  ext: 'mp4' | 'm4a',
): Promise<{ moov: Box; mdatFirst: boolean } | { problem: string }> {
  let mdatFirst = false;
  let offset = 0;
  for (let count = 0; offset + 8 <= file.size && count < MAX_BOXES; count++) {
    const head = await read(file, offset, 16);
    const box = boxHeader(head, 0, offset, file.size);
    if (count === 0 && (!box || !FIRST_BOX_TYPES.has(box.type))) return { problem: notIsoMessage(ext, head) };
    if (!box) return { problem: DAMAGED };
    if (box.type === 'moov') return box.end > file.size ? { problem: DAMAGED } : { moov: box, mdatFirst };
    if (box.type === 'mdat') mdatFirst = true;
    offset = box.end;
  }
  return { problem: offset === 0 ? notIsoMessage(ext, new Uint8Array(0)) : NO_INDEX };
}

function notIsoMessage(ext: 'mp4' | 'm4a', head: Uint8Array): string {
  const guess = formatGuess(head);
  const what = ext === 'mp4' ? 'an MP4 video' : 'an M4A audio file';
  const redo = ext === 'mp4' ? 'as MP4 (H.264 video with AAC sound)' : 'as M4A (AAC sound)';
  return `This file is not ${what}, although its name ends in .${ext}${guess ? ` (it looks like ${guess})` : ''}. Export it again ${redo}, then upload the new file.`;
}

/** One track: its handler (`vide`, `soun`, …) and the bytes of each of its sample entries. */
interface Track {
  handler: string;
  entries: Uint8Array[];
}

/** The `moov/trak` boxes' handlers and sample entries; null when the index is malformed. */
async function readTracks(file: MediaFile, moov: Box): Promise<Track[] | null> {
  const traks = (await childBoxes(file, moov))?.filter((box) => box.type === 'trak');
  if (!traks) return null;
  const tracks: Track[] = [];
  for (const trak of traks) {
    const track = await readTrack(file, trak);
    if (!track) return null;
    tracks.push(track);
  }
  return tracks;
}

async function child(file: MediaFile, parent: Box | undefined, type: string): Promise<Box | undefined> {
  return parent && (await childBoxes(file, parent))?.find((box) => box.type === type);
}

/** The sample descriptions (`stsd`) are small; a cap keeps a malformed size from reading gigabytes. */
const MAX_STSD_BYTES = 1 << 20;

/** `trak/mdia/hdlr`'s handler type and `trak/mdia/minf/stbl/stsd`'s entries. */
async function readTrack(file: MediaFile, trak: Box): Promise<Track | null> {
  const mdia = await child(file, trak, 'mdia');
  const hdlr = await child(file, mdia, 'hdlr');
  const stsd = await child(file, await child(file, await child(file, mdia, 'minf'), 'stbl'), 'stsd');
  if (!hdlr || !stsd) return null;
  // hdlr: version and flags (4), pre_defined (4), then handler_type.
  const handler = ascii(await read(file, hdlr.bodyStart + 8, 4), 0, 4);
  const body = await read(file, stsd.bodyStart, Math.min(stsd.end - stsd.bodyStart, MAX_STSD_BYTES));
  // stsd: version and flags (4), entry_count (4), then one box per sample entry.
  const entries: Uint8Array[] = [];
  for (let at = 8; at + 8 <= body.length;) {
    const entry = boxHeader(body, at, 0, body.length);
    if (!entry || entry.end > body.length) return null;
    entries.push(body.subarray(entry.start, entry.end));
    at = entry.end;
  }
  return { handler, entries };
}

/** The boxes inside an in-memory box's bytes, from `from` (past the entry's own fields). */
function innerBoxes(bytes: Uint8Array, from: number): Box[] {
  const boxes: Box[] = [];
  for (let at = from; at + 8 <= bytes.length;) {
    const box = boxHeader(bytes, at, 0, bytes.length);
    if (!box || box.end > bytes.length) break;
    boxes.push(box);
    at = box.end;
  }
  return boxes;
}

/** Names of the sample-entry codes staff may meet, for the message that refuses them. */
const CODEC_NAMES: Record<string, string> = {
  hvc1: 'HEVC (H.265)',
  hev1: 'HEVC (H.265)',
  dvh1: 'Dolby Vision',
  dvhe: 'Dolby Vision',
  vp08: 'VP8',
  vp09: 'VP9',
  av01: 'AV1',
  mp4v: 'MPEG-4 Part 2',
  s263: 'H.263',
  apch: 'Apple ProRes',
  apcn: 'Apple ProRes',
  apcs: 'Apple ProRes',
  apco: 'Apple ProRes',
  ap4h: 'Apple ProRes',
  ap4x: 'Apple ProRes',
  jpeg: 'Motion JPEG',
  mjpa: 'Motion JPEG',
  Opus: 'Opus',
  'ac-3': 'Dolby Digital (AC-3)',
  'ec-3': 'Dolby Digital Plus (E-AC-3)',
  'ac-4': 'Dolby AC-4',
  alac: 'Apple Lossless (ALAC)',
  fLaC: 'FLAC',
  '.mp3': 'MP3',
  samr: 'AMR',
  sawb: 'AMR-WB',
  lpcm: 'uncompressed PCM',
  sowt: 'uncompressed PCM',
  twos: 'uncompressed PCM',
  ipcm: 'uncompressed PCM',
  fpcm: 'uncompressed PCM',
};

const codecName = (code: string): string => CODEC_NAMES[code] ?? `an unusual format ("${code.trim()}")`;

/** H.264 profiles browsers decode: Baseline, Main, Extended, High (8-bit 4:2:0). */
const PLAYABLE_H264_PROFILES = new Set([66, 77, 88, 100]);
const H264_PROFILE_NAMES: Record<number, string> = {
  110: 'H.264 High 10 (10-bit colour)',
  122: 'H.264 High 4:2:2',
  244: 'H.264 High 4:4:4',
  44: 'H.264 4:4:4 Intra',
};

/**
 * Why an `avc1`/`avc3` entry will not play, or null. Its `avcC` box (after the visual sample
 * entry's 78 bytes of fields) names the profile: browsers decode 8-bit 4:2:0 H.264 only, and
 * none starts a decoder without the `avcC` (a muxer that stored the stream raw leaves it empty).
 */
function h264Problem(entry: Uint8Array): string | null {
  const avcC = innerBoxes(entry, 8 + 78).find((box) => box.type === 'avcC');
  if (!avcC || avcC.end - avcC.bodyStart < 4) return 'H.264 without its decoder settings (no avcC)';
  const profile = byte(entry, avcC.bodyStart + 1);
  if (PLAYABLE_H264_PROFILES.has(profile)) return null;
  return H264_PROFILE_NAMES[profile] ?? `H.264 in an unusual profile (${profile})`;
}

/** Where an `mp4a` entry's child boxes start: after 28 bytes of fields, more in QuickTime v1/v2. */
function soundEntryChildren(entry: Uint8Array): number {
  const version = u16(entry, 16);
  return 8 + 28 + (version === 1 ? 16 : version === 2 ? 36 : 0);
}

/** An MPEG-4 descriptor in `esds`: its tag and where its payload lies (length in 1–4 bytes). */
function descriptorAt(bytes: Uint8Array, at: number): { tag: number; body: number; end: number } {
  let length = 0;
  let pos = at + 1;
  for (let i = 0; i < 4; i++) {
    const b = byte(bytes, pos++);
    length = length * 128 + (b & 0x7f);
    if (!(b & 0x80)) break;
  }
  return { tag: byte(bytes, at), body: pos, end: pos + length };
}

/** Audio object types (ISO 14496-3) browsers decode: AAC Main, LC, SSR, LTP, HE-AAC v1 and v2. */
const PLAYABLE_AUDIO_OBJECT_TYPES = new Set([1, 2, 3, 4, 5, 29]);
const OBJECT_TYPE_NAMES: Record<number, string> = {
  0x69: 'MP3',
  0x6b: 'MP3',
  0xa5: 'Dolby Digital (AC-3)',
  0xa6: 'Dolby Digital Plus (E-AC-3)',
  0xdd: 'Vorbis',
  0xad: 'Opus',
};
const AUDIO_OBJECT_TYPE_NAMES: Record<number, string> = { 23: 'AAC-LD', 39: 'AAC-ELD', 42: 'xHE-AAC' };

/**
 * Why an `mp4a` entry will not play, or null. Its `esds` (directly inside, or in QuickTime's
 * `wave`) holds the decoder configuration: object type 0x40 is MPEG-4 audio, whose first 5 bits
 * (31 escapes to 6 more) are the audio object type; 0x66–0x68 are MPEG-2 AAC. An entry whose
 * `esds` cannot be found is let through: the check is for what browsers refuse, not a validator.
 */
function aacProblem(entry: Uint8Array): string | null {
  const boxes = innerBoxes(entry, soundEntryChildren(entry));
  const wave = boxes.find((box) => box.type === 'wave');
  const inWave = wave ? innerBoxes(entry.subarray(0, wave.end), wave.bodyStart) : [];
  const esds = [...boxes, ...inWave].find((box) => box.type === 'esds');
  if (!esds) return null;
  const es = descriptorAt(entry, esds.bodyStart + 4);
  if (es.tag !== 0x03) return null;
  const flags = byte(entry, es.body + 2);
  let at = es.body + 3 + (flags & 0x80 ? 2 : 0);
  if (flags & 0x40) at += 1 + byte(entry, at);
  if (flags & 0x20) at += 2;
  const config = descriptorAt(entry, at);
  if (config.tag !== 0x04) return null;
  const objectType = byte(entry, config.body);
  if (objectType >= 0x66 && objectType <= 0x68) return null;
  if (objectType !== 0x40) return OBJECT_TYPE_NAMES[objectType] ?? `an unusual format (object type ${objectType})`;
  const specific = descriptorAt(entry, config.body + 13);
  if (specific.tag !== 0x05) return null;
  const first = byte(entry, specific.body);
  let audioObjectType = first >> 3;
  if (audioObjectType === 31) audioObjectType = 32 + (((first & 7) << 3) | (byte(entry, specific.body + 1) >> 5));
  if (PLAYABLE_AUDIO_OBJECT_TYPES.has(audioObjectType)) return null;
  return AUDIO_OBJECT_TYPE_NAMES[audioObjectType] ?? `an unusual kind of AAC (type ${audioObjectType})`;
}

/** What is wrong with one sample entry of a `vide` or `soun` track, or null. */
type EntryIssue = { protected: true } | { protected: false; codec: string };

function entryIssue(handler: 'vide' | 'soun', entry: Uint8Array): EntryIssue | null {
  const code = ascii(entry, 4, 4);
  if (code === 'encv' || code === 'enca' || code === 'drms' || code === 'drmi') return { protected: true };
  let codec: string | null;
  if (handler === 'vide') codec = code === 'avc1' || code === 'avc3' ? h264Problem(entry) : codecName(code);
  else codec = code === 'mp4a' ? aacProblem(entry) : codecName(code);
  return codec === null ? null : { protected: false, codec };
}

/**
 * Why the tracks will not do for this extension, or null. Only picture (`vide`) and sound
 * (`soun`) tracks are judged: chapters, timecode and subtitle tracks do not stop playback.
 */
function tracksProblem(ext: 'mp4' | 'm4a', tracks: Track[]): string | null {
  const video = tracks.filter((track) => track.handler === 'vide');
  const audio = tracks.filter((track) => track.handler === 'soun');
  for (const [handler, group] of [['vide', video] as const, ['soun', audio] as const]) {
    for (const entry of group.flatMap((track) => track.entries)) {
      const issue = entryIssue(handler, entry);
      if (issue) return issue.protected ? PROTECTED : codecMessage(ext, handler, issue.codec);
    }
  }
  if (ext === 'm4a' && video.length > 0)
    return `This .m4a file also contains video. Upload videos as .mp4, or keep only the sound with: ${M4A_REENCODE_COMMAND}`;
  if (ext === 'm4a' && audio.length === 0)
    return 'This .m4a file has no sound in it. Export the audio again as M4A (AAC).';
  if (ext === 'mp4' && video.length === 0)
    return 'This .mp4 file has no picture, only sound. Upload sound-only files as .m4a or .mp3.';
  return null;
}

function codecMessage(ext: 'mp4' | 'm4a', handler: 'vide' | 'soun', codec: string): string {
  const tail = "which not every member's browser can play.";
  if (ext === 'm4a')
    return `This audio is encoded as ${codec}, ${tail} Convert it to AAC, for example with: ${M4A_REENCODE_COMMAND}`;
  const what = handler === 'vide' ? 'This video' : "This video's sound";
  return `${what} is encoded as ${codec}, ${tail} Convert it to H.264 video with AAC sound, for example with: ${REENCODE_COMMAND}`;
}

/**
 * An MP4 or M4A: an ISO-BMFF whose index (`moov`) lists only playable tracks and comes before
 * the media (`mdat`). Codecs are judged first, though the index is read wherever it is, because
 * the re-encoding command also moves the index: one message then fixes everything.
 */
async function isoProblem(file: MediaFile, ext: 'mp4' | 'm4a'): Promise<string | null> {
  const index = await findIndex(file, ext);
  if ('problem' in index) return index.problem;
  const tracks = await readTracks(file, index.moov);
  if (!tracks) return DAMAGED;
  const problem = tracksProblem(ext, tracks);
  if (problem) return problem;
  if (index.mdatFirst) {
    const command = ext === 'mp4' ? FASTSTART_COMMAND : M4A_FASTSTART_COMMAND;
    return `This file's index is at the end, so it cannot start playing until it has fully downloaded. Move the index to the front (the picture and sound stay as they are), for example with: ${command}`;
  }
  return null;
}

// ---------------------------------------------------------------- MP3

/**
 * The MPEG audio layer (1, 2 or 3) of the frame header at `at`, or 0 when none starts there:
 * an 11-bit sync (0xFFE…), then no reserved version, layer, bitrate or sample rate.
 */
function mpegAudioLayer(bytes: Uint8Array, at: number): number {
  const b1 = byte(bytes, at + 1);
  const b2 = byte(bytes, at + 2);
  if (at + 4 > bytes.length || byte(bytes, at) !== 0xff || (b1 & 0xe0) !== 0xe0) return 0;
  const version = (b1 >> 3) & 3;
  const layerBits = (b1 >> 1) & 3;
  if (version === 1 || layerBits === 0 || b2 >> 4 === 15 || ((b2 >> 2) & 3) === 3) return 0;
  return 4 - layerBits;
}

/** Where the ID3v2 tag at `at` ends (its size is 4 syncsafe 7-bit bytes), or null if malformed. */
function id3End(head: Uint8Array, at: number): number | null {
  const sizeBytes = [6, 7, 8, 9].map((i) => byte(head, i));
  if (head.length < 10 || byte(head, 3) > 4 || sizeBytes.some((b) => b > 0x7f)) return null;
  const size = sizeBytes.reduce((total, b) => total * 128 + b, 0);
  const footer = byte(head, 3) === 4 && byte(head, 5) & 0x10 ? 10 : 0;
  return at + 10 + size + footer;
}

/**
 * An MP3: an MPEG audio Layer III frame at the start, or after one or more ID3v2 tags (read
 * by their headers only: a tag with cover art can be megabytes). Zero padding a tagger left
 * after its tag is skipped, as players skip it.
 */
async function mp3Problem(file: MediaFile): Promise<string | null> {
  let at = 0;
  for (let tags = 0; tags < 8; tags++) {
    const head = await read(file, at, 10);
    if (!startsWith(head, 0, 'ID3')) break;
    const end = id3End(head, at);
    if (end === null) return DAMAGED;
    if (end >= file.size)
      return 'This MP3 has its title and artist details but no sound after them: it is damaged or incomplete. Export it again.';
    at = end;
  }
  const window = await read(file, at, 4096);
  let sync = 0;
  while (sync < window.length && byte(window, sync) === 0) sync++;
  const layer = mpegAudioLayer(window, sync);
  if (layer === 3) return null;
  const guess = layer === 2 ? 'MPEG Layer II audio (MP2)' : layer === 1 ? 'MPEG Layer I audio' : formatGuess(window);
  return `This file is not an MP3, although its name ends in .mp3${guess && at === 0 ? ` (it looks like ${guess})` : ''}. Convert it to MP3, for example with: ${MP3_ENCODE_COMMAND}`;
}

// ---------------------------------------------------------------- WebVTT

/**
 * WebVTT captions: an optional UTF-8 byte order mark, then `WEBVTT` followed by a space, a tab,
 * a line break or the end of the file (the WebVTT parser's own first test).
 */
async function vttProblem(file: MediaFile): Promise<string | null> {
  const head = await read(file, 0, 64);
  const from = startsWith(head, 0, '\xef\xbb\xbf') ? 3 : 0;
  const after = head[from + 6];
  if (startsWith(head, from, 'WEBVTT') && (after === undefined || [0x20, 0x09, 0x0a, 0x0d].includes(after)))
    return null;
  const text = ascii(head, from, head.length - from);
  let hint = ' Save or export the captions as WebVTT (.vtt).';
  if ((byte(head, 0) === 0xff && byte(head, 1) === 0xfe) || (byte(head, 0) === 0xfe && byte(head, 1) === 0xff))
    hint = ' It is saved as UTF-16 text: save it again as UTF-8.';
  else if (/^\s*\d+\r?\n\d\d:\d\d:\d\d,\d\d\d --> /.test(text))
    hint = ` It looks like SubRip (.srt) captions; convert them, for example with: ${SRT_TO_VTT_COMMAND}`;
  return `This file is not WebVTT captions: a WebVTT file starts with the word WEBVTT on its first line.${hint}`;
}
