// A PDF's first page stamped by an incremental update, and the check that a PDF can be.
//
// The stamped copy is the original bytes, unchanged, followed by an update as PDF editors save
// one: a font (Helvetica, a standard font, so nothing is embedded), two content streams ("q"
// before page 1's own content, and "Q" then the line after it, so a matrix, colour or text mode
// the page's content leaves set does not reach the line; content with more q than Q of its own
// would still hold it), page 1's object again with those streams added to its
// Contents and the font to its Resources, and a cross-reference section whose /Prev is the
// file's last one: a table, or a cross-reference stream when the last section is one.
//
// Only what page 1 needs is read: the trailer and cross-reference chain at the end, then the
// objects from Root through the page tree to page 1, its Resources and its Contents (inside
// object streams where they are). Nothing else is parsed, so the cost follows the depth of the
// page tree and the size of the cross-reference sections, not the pages, fonts or images.
//
// Handled: classic tables, cross-reference streams (with PNG predictors), hybrid files (a table
// whose trailer has /XRefStm), linearized files (the last startxref names the first-page
// section, whose /Prev is the main one) and files that already carry updates; Resources,
// MediaBox, CropBox and Rotate inherited from the page tree; Contents as a stream, an array, a
// reference to an array, or absent. On a rotated page the line reads upright at the foot of the
// page as shown. When the file's own cross-references cannot be followed (a wrong startxref,
// offsets shifted by an edit) in a file that still ends with startxref and %%EOF, its objects are
// found where they stand, in one pass over the bytes, as readers repair such files, and the
// update carries a whole new section with no /Prev. An encrypted file (any /Encrypt, owner
// password only included), a file that is not a PDF, a file cut short and one whose page 1
// cannot be found even so throw a PdfProblem.
//
// No imports but its own words (pdf-problems.ts): the download function (Deno) and the staff
// upload page (the browser) both use it, each handing in its own zlib inflate. See docs/decisions/095 and 073.

import type { PdfProblemReason } from './pdf-problems.ts';

export { PDF_PROBLEM_ADVICE, type PdfProblemReason } from './pdf-problems.ts';

export type Inflate = (data: Uint8Array) => Uint8Array;

/** A PDF that cannot be stamped, and why. */
export class PdfProblem extends Error {
  constructor(
    readonly reason: PdfProblemReason,
    detail: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'PdfProblem';
  }
}

const damaged = (detail: string) => new PdfProblem('damaged', detail);

// ---------------------------------------------------------------------------------------------
// Values

class Name {
  constructor(readonly name: string) {}
}
class Str {
  constructor(readonly bytes: Uint8Array) {}
}
class Ref {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}
class Keyword {
  constructor(readonly word: string) {}
}
class Dict {
  constructor(readonly map: Map<string, Value> = new Map()) {}
  get(key: string): Value | undefined {
    return this.map.get(key);
  }
}
/** A stream: its dictionary and where its (encoded) data lies in `data`. */
class Stream {
  constructor(
    readonly dict: Dict,
    readonly data: Uint8Array,
    readonly start: number,
    readonly end: number,
  ) {}
}
type Value = null | boolean | number | Name | Str | Ref | Dict | Stream | Value[];

// ---------------------------------------------------------------------------------------------
// Reading

const WHITE = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) WHITE[c] = 1;
const DELIM = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIM[c.charCodeAt(0)] = 1;

const latin1 = (bytes: Uint8Array, start: number, end: number) => {
  let out = '';
  for (let i = start; i < end; i += 1) out += String.fromCharCode(bytes[i]!);
  return out;
};

/** A tokenizer over one buffer: the file, or a decoded object stream. */
class Lexer {
  constructor(
    readonly buf: Uint8Array,
    public pos: number,
  ) {}

  skipSpace(): void {
    const { buf } = this;
    for (;;) {
      while (this.pos < buf.length && WHITE[buf[this.pos]!]) this.pos += 1;
      if (buf[this.pos] !== 0x25 /* % */) return;
      while (this.pos < buf.length && buf[this.pos] !== 10 && buf[this.pos] !== 13) this.pos += 1;
    }
  }

  /** The next value, or a Keyword (obj, endobj, stream, R, trailer, xref, n, f…). */
  next(): Value | Keyword {
    this.skipSpace();
    const { buf } = this;
    if (this.pos >= buf.length) throw damaged('unexpected end of data');
    const c = buf[this.pos]!;
    if (c === 0x2f /* / */) return this.name();
    if (c === 0x28 /* ( */) return this.literal();
    if (c === 0x3c /* < */) {
      if (buf[this.pos + 1] === 0x3c) {
        this.pos += 2;
        return this.dict();
      }
      return this.hex();
    }
    if (c === 0x5b /* [ */) {
      this.pos += 1;
      const items: Value[] = [];
      for (;;) {
        this.skipSpace();
        if (buf[this.pos] === 0x5d /* ] */) {
          this.pos += 1;
          return items;
        }
        items.push(this.value());
      }
    }
    if (c === 0x3e || c === 0x5d || c === 0x29 || c === 0x7b || c === 0x7d) {
      this.pos += 1;
      return new Keyword(String.fromCharCode(c));
    }
    const start = this.pos;
    while (this.pos < buf.length && !WHITE[buf[this.pos]!] && !DELIM[buf[this.pos]!]) this.pos += 1;
    const word = latin1(buf, start, this.pos);
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) {
      const number = Number(word);
      // `n g R`: an integer followed by an integer and R is a reference.
      if (/^\d+$/.test(word)) {
        const save = this.pos;
        this.skipSpace();
        const genStart = this.pos;
        while (this.pos < buf.length && buf[this.pos]! >= 0x30 && buf[this.pos]! <= 0x39) this.pos += 1;
        if (this.pos > genStart) {
          const gen = Number(latin1(buf, genStart, this.pos));
          this.skipSpace();
          if (
            buf[this.pos] === 0x52 /* R */ &&
            (this.pos + 1 >= buf.length || WHITE[buf[this.pos + 1]!] || DELIM[buf[this.pos + 1]!])
          ) {
            this.pos += 1;
            return new Ref(number, gen);
          }
        }
        this.pos = save;
      }
      return number;
    }
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (word === 'null') return null;
    if (word === '') throw damaged(`unexpected byte ${c} at ${start}`);
    return new Keyword(word);
  }

  value(): Value {
    const token = this.next();
    if (token instanceof Keyword) throw damaged(`unexpected "${token.word}" at ${this.pos}`);
    return token;
  }

  private name(): Name {
    const { buf } = this;
    this.pos += 1;
    let out = '';
    while (this.pos < buf.length && !WHITE[buf[this.pos]!] && !DELIM[buf[this.pos]!]) {
      const c = buf[this.pos]!;
      if (c === 0x23 /* # */ && this.pos + 2 < buf.length) {
        const code = parseInt(latin1(buf, this.pos + 1, this.pos + 3), 16);
        if (!Number.isNaN(code)) {
          out += String.fromCharCode(code);
          this.pos += 3;
          continue;
        }
      }
      out += String.fromCharCode(c);
      this.pos += 1;
    }
    return new Name(out);
  }

  private literal(): Str {
    const { buf } = this;
    this.pos += 1;
    const out: number[] = [];
    let depth = 1;
    while (this.pos < buf.length) {
      const c = buf[this.pos++]!;
      if (c === 0x5c /* \ */) {
        const e = buf[this.pos++]!;
        const simple: Record<number, number> = { 0x6e: 10, 0x72: 13, 0x74: 9, 0x62: 8, 0x66: 12 };
        if (simple[e] !== undefined) out.push(simple[e]!);
        else if (e >= 0x30 && e <= 0x37) {
          let code = e - 0x30;
          for (let k = 0; k < 2 && buf[this.pos]! >= 0x30 && buf[this.pos]! <= 0x37; k += 1) {
            code = code * 8 + (buf[this.pos++]! - 0x30);
          }
          out.push(code & 0xff);
        } else if (e === 13) {
          if (buf[this.pos] === 10) this.pos += 1;
        } else if (e !== 10) out.push(e);
      } else if (c === 0x28) {
        depth += 1;
        out.push(c);
      } else if (c === 0x29) {
        depth -= 1;
        if (depth === 0) return new Str(Uint8Array.from(out));
        out.push(c);
      } else out.push(c);
    }
    throw damaged('unterminated string');
  }

  private hex(): Str {
    const { buf } = this;
    this.pos += 1;
    let digits = '';
    while (this.pos < buf.length && buf[this.pos] !== 0x3e) {
      const c = buf[this.pos++]!;
      if (!WHITE[c]) digits += String.fromCharCode(c);
    }
    this.pos += 1;
    if (digits.length % 2) digits += '0';
    const out = new Uint8Array(digits.length / 2);
    for (let i = 0; i < out.length; i += 1) out[i] = parseInt(digits.slice(2 * i, 2 * i + 2), 16);
    return new Str(out);
  }

  private dict(): Dict {
    const map = new Map<string, Value>();
    for (;;) {
      const key = this.next();
      if (key instanceof Keyword && key.word === '>') {
        if (this.buf[this.pos] !== 0x3e) throw damaged('bad dictionary end');
        this.pos += 1;
        return new Dict(map);
      }
      if (!(key instanceof Name)) throw damaged(`dictionary key expected at ${this.pos}`);
      map.set(key.name, this.value());
    }
  }

  keyword(word: string): void {
    const token = this.next();
    if (!(token instanceof Keyword) || token.word !== word) throw damaged(`"${word}" expected at ${this.pos}`);
  }

  integer(): number {
    const token = this.next();
    if (typeof token !== 'number' || !Number.isInteger(token)) throw damaged(`integer expected at ${this.pos}`);
    return token;
  }
}

type Entry = { type: 0 } | { type: 1; offset: number; gen: number } | { type: 2; stream: number; index: number };

/** One cross-reference section, as found at an offset. */
type Section = { form: 'table' | 'stream'; trailer: Dict };

function paethPredictor(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** PNG predictors (10–15) and TIFF predictor 2 at 8 bits, as object and xref streams use them. */
function unpredict(data: Uint8Array, parms: Dict | null): Uint8Array {
  const predictor = (parms?.get('Predictor') as number | undefined) ?? 1;
  if (predictor <= 1) return data;
  const colors = (parms?.get('Colors') as number | undefined) ?? 1;
  const bpc = (parms?.get('BitsPerComponent') as number | undefined) ?? 8;
  const columns = (parms?.get('Columns') as number | undefined) ?? 1;
  const bpp = Math.max(1, Math.ceil((colors * bpc) / 8));
  const row = Math.ceil((columns * colors * bpc) / 8);
  if (predictor === 2) {
    if (bpc !== 8) throw damaged('TIFF predictor other than 8 bits');
    const out = data.slice();
    for (let r = 0; r + row <= out.length; r += row) {
      for (let i = bpp; i < row; i += 1) out[r + i] = (out[r + i]! + out[r + i - bpp]!) & 0xff;
    }
    return out;
  }
  const rows = Math.floor(data.length / (row + 1));
  const out = new Uint8Array(rows * row);
  for (let r = 0; r < rows; r += 1) {
    const type = data[r * (row + 1)]!;
    const src = r * (row + 1) + 1;
    const dst = r * row;
    for (let i = 0; i < row; i += 1) {
      const raw = data[src + i]!;
      const left = i >= bpp ? out[dst + i - bpp]! : 0;
      const up = r > 0 ? out[dst - row + i]! : 0;
      const upLeft = r > 0 && i >= bpp ? out[dst - row + i - bpp]! : 0;
      let value: number;
      if (type === 0) value = raw;
      else if (type === 1) value = raw + left;
      else if (type === 2) value = raw + up;
      else if (type === 3) value = raw + ((left + up) >> 1);
      else if (type === 4) value = raw + paethPredictor(left, up, upLeft);
      else throw damaged(`PNG predictor row type ${type}`);
      out[dst + i] = value & 0xff;
    }
  }
  return out;
}

/** The whole file, read only where page 1 needs it. */
class Reader {
  readonly entries = new Map<number, Entry>();
  readonly trailer = new Map<string, Value>();
  /**
   * Where the last section starts (the next update's /Prev) and its form; 'rebuilt' when the
   * file's own sections could not be followed and `recover` found the objects instead.
   */
  lastSection!: { offset: number; form: 'table' | 'stream' | 'rebuilt' };
  private readonly objectStreams = new Map<number, { data: Uint8Array; offsets: Map<number, number> }>();
  private readonly resolving = new Set<number>();

  constructor(
    readonly bytes: Uint8Array,
    readonly inflate: Inflate,
  ) {}

  open(): void {
    const { bytes } = this;
    const head = latin1(bytes, 0, Math.min(bytes.length, 1024));
    if (!head.includes('%PDF-')) throw new PdfProblem('not_pdf', 'no %PDF- header');
    const tailStart = Math.max(0, bytes.length - 2048);
    const tail = latin1(bytes, tailStart, bytes.length);
    const at = tail.lastIndexOf('startxref');
    if (at < 0) throw damaged('no startxref');
    const lexer = new Lexer(bytes, tailStart + at + 'startxref'.length);
    const offset = lexer.integer();
    const seen = new Set<number>();
    let next: number | null = offset;
    while (next !== null) {
      if (seen.has(next) || seen.size > 1000) throw damaged('cross-reference sections loop');
      seen.add(next);
      const section = this.section(next);
      if (seen.size === 1) this.lastSection = { offset: next, form: section.form };
      for (const [key, value] of section.trailer.map) {
        if (!this.trailer.has(key) && key !== 'Prev' && key !== 'XRefStm') this.trailer.set(key, value);
      }
      const prev = section.trailer.get('Prev');
      next = typeof prev === 'number' ? prev : null;
    }
    if (this.trailer.has('Encrypt')) throw new PdfProblem('encrypted', 'the trailer has /Encrypt');
    if (!(this.trailer.get('Root') instanceof Ref)) throw damaged('no /Root');
  }

  private add(num: number, entry: Entry): void {
    if (!this.entries.has(num)) this.entries.set(num, entry);
  }

  /** The section at `offset`: its entries joined under the newer ones, and its trailer. */
  private section(offset: number): Section {
    if (!(offset >= 0 && offset < this.bytes.length)) throw damaged(`startxref ${offset} is outside the file`);
    const lexer = new Lexer(this.bytes, offset);
    lexer.skipSpace();
    if (latin1(this.bytes, lexer.pos, lexer.pos + 4) === 'xref') {
      lexer.pos += 4;
      const found: [number, Entry][] = [];
      for (;;) {
        const token = lexer.next();
        if (token instanceof Keyword && token.word === 'trailer') break;
        if (typeof token !== 'number') throw damaged('bad cross-reference table');
        const count = lexer.integer();
        for (let i = 0; i < count; i += 1) {
          const first = lexer.integer();
          const gen = lexer.integer();
          const kind = lexer.next();
          if (!(kind instanceof Keyword) || (kind.word !== 'n' && kind.word !== 'f'))
            throw damaged('bad cross-reference entry');
          found.push([token + i, kind.word === 'n' ? { type: 1, offset: first, gen } : { type: 0 }]);
        }
      }
      const trailer = lexer.value();
      if (!(trailer instanceof Dict)) throw damaged('bad trailer');
      // A hybrid file: the stream lists the objects kept in object streams. Its entries rank
      // below the table's objects and above older sections; a free entry of the table (how a
      // hybrid file hides those objects from older readers) does not hide them.
      for (const [num, entry] of found) if (entry.type !== 0) this.add(num, entry);
      const stm = trailer.get('XRefStm');
      if (typeof stm === 'number') this.streamSection(stm);
      for (const [num, entry] of found) if (entry.type === 0) this.add(num, entry);
      return { form: 'table', trailer };
    }
    return { form: 'stream', trailer: this.streamSection(offset) };
  }

  private streamSection(offset: number): Dict {
    const object = this.objectAt(offset, null);
    if (!(object instanceof Stream) || (object.dict.get('Type') as Name | undefined)?.name !== 'XRef') {
      throw damaged(`no cross-reference at ${offset}`);
    }
    const { dict } = object;
    const data = this.decode(object);
    const w = dict.get('W');
    if (!Array.isArray(w) || w.length < 3 || w.some((n) => typeof n !== 'number')) throw damaged('bad /W');
    const [w0, w1, w2] = w as number[];
    const size = dict.get('Size') as number;
    const index = (dict.get('Index') as number[] | undefined) ?? [0, size];
    const width = w0! + w1! + w2!;
    let at = 0;
    const field = (n: number, fallback: number) => {
      if (n === 0) return fallback;
      let value = 0;
      for (let k = 0; k < n; k += 1) value = value * 256 + data[at++]!;
      return value;
    };
    for (let s = 0; s + 1 < index.length; s += 2) {
      const start = index[s]!;
      const count = index[s + 1]!;
      for (let i = 0; i < count; i += 1) {
        if (at + width > data.length) throw damaged('cross-reference stream too short');
        const type = field(w0!, 1);
        const a = field(w1!, 0);
        const b = field(w2!, 0);
        if (type === 0) this.add(start + i, { type: 0 });
        else if (type === 1) this.add(start + i, { type: 1, offset: a, gen: b });
        else if (type === 2) this.add(start + i, { type: 2, stream: a, index: b });
      }
    }
    return dict;
  }

  /** The indirect object at `offset` (its header checked against `ref` when given). */
  private objectAt(offset: number, ref: Ref | null): Value {
    const lexer = new Lexer(this.bytes, offset);
    const num = lexer.integer();
    const gen = lexer.integer();
    lexer.keyword('obj');
    if (ref && (num !== ref.num || gen !== ref.gen)) {
      throw damaged(`object ${ref.num} ${ref.gen} expected at ${offset}, found ${num} ${gen}`);
    }
    const value = lexer.value();
    lexer.skipSpace();
    if (value instanceof Dict && latin1(this.bytes, lexer.pos, lexer.pos + 6) === 'stream') {
      let start = lexer.pos + 6;
      if (this.bytes[start] === 13) start += 1;
      if (this.bytes[start] === 10) start += 1;
      const length = this.resolve(value.get('Length') ?? null);
      let end = typeof length === 'number' ? start + length : -1;
      const check = end >= 0 ? new Lexer(this.bytes, end) : null;
      check?.skipSpace();
      if (!check || latin1(this.bytes, check.pos, check.pos + 9) !== 'endstream') {
        // A wrong /Length: find endstream instead, as readers do.
        const limit = Math.min(this.bytes.length, start + (1 << 26));
        end = -1;
        for (let i = start; i + 9 <= limit; i += 1) {
          if (this.bytes[i] === 0x65 && latin1(this.bytes, i, i + 9) === 'endstream') {
            end = i;
            break;
          }
        }
        if (end < 0) throw damaged(`stream ${num} has no end`);
        while (end > start && (this.bytes[end - 1] === 10 || this.bytes[end - 1] === 13)) end -= 1;
      }
      return new Stream(value, this.bytes, start, end);
    }
    return value;
  }

  /** A stream's data with its filters undone (FlateDecode and predictors only). */
  decode(stream: Stream): Uint8Array {
    let data = stream.data.subarray(stream.start, stream.end);
    const filter = this.resolve(stream.dict.get('Filter') ?? null);
    const filters = (Array.isArray(filter) ? filter : filter ? [filter] : []).map((f) => this.resolve(f));
    const parmsValue = this.resolve(stream.dict.get('DecodeParms') ?? null);
    const parms = Array.isArray(parmsValue) ? parmsValue.map((p) => this.resolve(p)) : [parmsValue];
    filters.forEach((f, i) => {
      if (!(f instanceof Name) || (f.name !== 'FlateDecode' && f.name !== 'Fl')) {
        throw damaged(`a structural stream uses ${f instanceof Name ? f.name : 'an unknown filter'}`);
      }
      try {
        data = this.inflate(data);
      } catch (error) {
        throw damaged(`a structural stream does not inflate: ${String(error)}`);
      }
      const p = parms[i];
      data = unpredict(data, p instanceof Dict ? p : null);
    });
    return data;
  }

  /** The object `ref` names (null for a free or missing one, as the format says). */
  lookup(ref: Ref): Value {
    const entry = this.entries.get(ref.num);
    if (!entry || entry.type === 0) return null;
    if (this.resolving.has(ref.num)) throw damaged(`object ${ref.num} refers to itself`);
    this.resolving.add(ref.num);
    try {
      if (entry.type === 1) return this.objectAt(entry.offset, new Ref(ref.num, entry.gen));
      const container = this.objectStream(entry.stream);
      const at = container.offsets.get(ref.num);
      if (at === undefined) throw damaged(`object ${ref.num} is not in object stream ${entry.stream}`);
      return new Lexer(container.data, at).value();
    } finally {
      this.resolving.delete(ref.num);
    }
  }

  /**
   * Rebuilding: the objects object stream `num` holds, each where no later definition stands
   * (the one further into the file wins, as a later update's does, whether on its own or in a
   * later object stream).
   */
  indexObjectStream(num: number): void {
    try {
      const { offsets } = this.objectStream(num);
      const at = this.entryOffset(num);
      let index = 0;
      for (const objNum of offsets.keys()) {
        if (this.entryOffset(objNum) < at) this.entries.set(objNum, { type: 2, stream: num, index });
        index += 1;
      }
    } catch {
      // an object stream that cannot be read holds nothing we can use
    }
  }

  /** Where an object's definition stands in the file: its own offset, or its object stream's; -1 if none. */
  entryOffset(num: number): number {
    const entry = this.entries.get(num);
    if (entry?.type === 1) return entry.offset;
    if (entry?.type === 2) {
      const container = this.entries.get(entry.stream);
      return container?.type === 1 ? container.offset : -1;
    }
    return -1;
  }

  entryGen(num: number): number {
    const entry = this.entries.get(num);
    return entry?.type === 1 ? entry.gen : 0;
  }

  private objectStream(num: number) {
    const cached = this.objectStreams.get(num);
    if (cached) return cached;
    const stream = this.lookup(new Ref(num, 0));
    if (!(stream instanceof Stream)) throw damaged(`object stream ${num} is missing`);
    const data = this.decode(stream);
    const n = this.resolve(stream.dict.get('N') ?? null);
    const first = this.resolve(stream.dict.get('First') ?? null);
    if (typeof n !== 'number' || typeof first !== 'number') throw damaged(`object stream ${num} lacks /N or /First`);
    const lexer = new Lexer(data, 0);
    const offsets = new Map<number, number>();
    for (let i = 0; i < n; i += 1) {
      const objNum = lexer.integer();
      offsets.set(objNum, first + lexer.integer());
    }
    const container = { data, offsets };
    this.objectStreams.set(num, container);
    return container;
  }

  resolve(value: Value): Value {
    for (let hops = 0; value instanceof Ref; hops += 1) {
      if (hops > 32) throw damaged('reference chain too long');
      value = this.lookup(value);
    }
    return value;
  }

  dict(value: Value, what: string): Dict {
    const resolved = this.resolve(value);
    if (resolved instanceof Stream) return resolved.dict;
    if (!(resolved instanceof Dict)) throw damaged(`${what} is not a dictionary`);
    return resolved;
  }
}

// ---------------------------------------------------------------------------------------------
// Rebuilding the cross-references of a file whose own cannot be followed

/** A file that ends as a whole one: `startxref`, a number and `%%EOF` in its last 1 KB. */
function endsWhole(bytes: Uint8Array): boolean {
  return /startxref\s+\d+\s+%%EOF/.test(latin1(bytes, Math.max(0, bytes.length - 1024), bytes.length));
}

const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;
const isWhite = (c: number | undefined) => c !== undefined && WHITE[c] === 1;

/** At `i`, the "obj" of `num gen obj`: the object's start, number and generation, or null. */
function objectHeaderBefore(bytes: Uint8Array, i: number): { start: number; num: number; gen: number } | null {
  const after = bytes[i + 3];
  if (after !== undefined && !WHITE[after] && !DELIM[after]) return null;
  let j = i - 1;
  if (!isWhite(bytes[j])) return null;
  while (isWhite(bytes[j])) j -= 1;
  const genEnd = j + 1;
  while (isDigit(bytes[j])) j -= 1;
  if (j + 1 === genEnd || !isWhite(bytes[j])) return null;
  const genStart = j + 1;
  while (isWhite(bytes[j])) j -= 1;
  const numEnd = j + 1;
  while (isDigit(bytes[j])) j -= 1;
  if (j + 1 === numEnd || (j >= 0 && !WHITE[bytes[j]!] && !DELIM[bytes[j]!])) return null;
  return {
    start: j + 1,
    num: Number(latin1(bytes, j + 1, numEnd)),
    gen: Number(latin1(bytes, genStart, genEnd)),
  };
}

/**
 * The file's objects found where they stand (the last of a number wins, as later updates do),
 * the objects inside its object streams, and its trailer: the last `trailer` dictionary or
 * cross-reference stream that names a Root, else the last catalog found. One pass over the bytes.
 */
function recover(reader: Reader): void {
  const { bytes } = reader;
  const found = new Map<number, { offset: number; gen: number }>();
  const trailers: number[] = [];
  for (let i = 0; i + 3 <= bytes.length; i += 1) {
    const c = bytes[i];
    if (c === 0x6f && bytes[i + 1] === 0x62 && bytes[i + 2] === 0x6a) {
      const header = objectHeaderBefore(bytes, i);
      if (header) found.set(header.num, { offset: header.start, gen: header.gen });
    } else if (c === 0x74 && latin1(bytes, i, i + 7) === 'trailer') trailers.push(i + 7);
  }
  for (const [num, { offset, gen }] of found) reader.entries.set(num, { type: 1, offset, gen });
  const dicts = new Map<number, Dict>();
  for (const [num, { offset }] of found) {
    const dict = dictAt(bytes, offset);
    if (dict) dicts.set(num, dict);
  }
  const objectStreams = [...dicts]
    .filter(([, dict]) => (dict.get('Type') as Name | undefined)?.name === 'ObjStm')
    .map(([num]) => num)
    .sort((a, b) => reader.entryOffset(a) - reader.entryOffset(b));
  for (const num of objectStreams) reader.indexObjectStream(num);
  const trailer = recoveredTrailer(reader, trailers, dicts);
  for (const [key, value] of trailer.map) if (key !== 'Prev' && key !== 'XRefStm') reader.trailer.set(key, value);
  if (reader.trailer.has('Encrypt')) throw new PdfProblem('encrypted', 'the trailer has /Encrypt');
  if (!(reader.trailer.get('Root') instanceof Ref)) throw damaged('no /Root found');
  reader.lastSection = { offset: -1, form: 'rebuilt' };
}

/** The dictionary of the object whose header starts at `offset`, or null (not a dictionary, unreadable). */
function dictAt(bytes: Uint8Array, offset: number): Dict | null {
  try {
    const lexer = new Lexer(bytes, offset);
    lexer.integer();
    lexer.integer();
    lexer.keyword('obj');
    const value = lexer.next();
    return value instanceof Dict ? value : null;
  } catch {
    return null;
  }
}

function recoveredTrailer(reader: Reader, trailers: number[], dicts: Map<number, Dict>): Dict {
  for (const at of trailers.reverse()) {
    try {
      const value = new Lexer(reader.bytes, at).value();
      if (value instanceof Dict && value.get('Root') instanceof Ref) return value;
    } catch {
      // not a trailer after all
    }
  }
  const nums = [...dicts.keys()].sort((a, b) => reader.entryOffset(b) - reader.entryOffset(a));
  for (const num of nums) {
    const dict = dicts.get(num)!;
    if ((dict.get('Type') as Name | undefined)?.name === 'XRef' && dict.get('Root') instanceof Ref) return dict;
  }
  for (const num of nums) {
    if ((dicts.get(num)!.get('Type') as Name | undefined)?.name === 'Catalog') {
      return new Dict(new Map<string, Value>([['Root', new Ref(num, reader.entryGen(num))]]));
    }
  }
  // A catalog kept in an object stream.
  for (const [num, entry] of reader.entries) {
    if (entry.type !== 2) continue;
    try {
      const value = reader.lookup(new Ref(num, 0));
      if (value instanceof Dict && (value.get('Type') as Name | undefined)?.name === 'Catalog') {
        return new Dict(new Map<string, Value>([['Root', new Ref(num, 0)]]));
      }
    } catch {
      // an unreadable object: not the catalog
    }
  }
  return new Dict();
}

// ---------------------------------------------------------------------------------------------
// Page 1

type FirstPage = {
  ref: Ref;
  /** The generation to write it with (0 when it lived in an object stream). */
  gen: number;
  dict: Dict;
  resources: Dict;
  /** The streams of its Contents, as references, in order. */
  contents: Value[];
  box: [number, number, number, number];
  rotate: number;
};

const INHERITED = ['Resources', 'MediaBox', 'CropBox', 'Rotate'] as const;

function box(reader: Reader, value: Value | undefined): [number, number, number, number] | null {
  const array = value === undefined ? null : reader.resolve(value);
  if (!Array.isArray(array) || array.length !== 4) return null;
  const n = array.map((v) => reader.resolve(v));
  if (n.some((v) => typeof v !== 'number')) return null;
  const [a, b, c, d] = n as number[];
  return [Math.min(a!, c!), Math.min(b!, d!), Math.max(a!, c!), Math.max(b!, d!)];
}

function firstPage(reader: Reader): FirstPage {
  const catalog = reader.dict(reader.trailer.get('Root')!, 'the catalog');
  let ref = catalog.get('Pages');
  const inherited = new Map<string, Value>();
  for (let depth = 0; depth < 64; depth += 1) {
    if (!(ref instanceof Ref)) throw damaged('a page tree node is not a reference');
    const node = reader.dict(ref, 'a page tree node');
    for (const key of INHERITED) {
      const value = node.get(key);
      if (value !== undefined) inherited.set(key, value);
    }
    const kidsValue = node.get('Kids');
    const type = (reader.resolve(node.get('Type') ?? null) as Name | null)?.name;
    if (type === 'Page' || (type !== 'Pages' && kidsValue === undefined)) {
      return pageFacts(reader, ref, node, inherited);
    }
    const kids = reader.resolve(kidsValue ?? null);
    if (!Array.isArray(kids)) throw damaged('a page tree node has no /Kids');
    // The first kid that holds a page: a page, or a node whose /Count is not 0.
    ref = kids.find((kid) => {
      if (!(kid instanceof Ref)) return false;
      const kidDict = reader.dict(kid, 'a page tree node');
      return reader.resolve(kidDict.get('Count') ?? null) !== 0;
    });
    if (ref === undefined) throw damaged('the document has no pages');
  }
  throw damaged('the page tree is deeper than 64');
}

function pageFacts(reader: Reader, ref: Ref, dict: Dict, inherited: Map<string, Value>): FirstPage {
  const entry = reader.entries.get(ref.num);
  const resourcesValue = inherited.get('Resources');
  const resources = resourcesValue === undefined ? new Dict() : reader.dict(resourcesValue, 'the page resources');
  const media = box(reader, inherited.get('MediaBox')) ?? [0, 0, 612, 792];
  const crop = box(reader, inherited.get('CropBox'));
  // The crop box as shown: clipped to the media box.
  const shown: [number, number, number, number] = crop
    ? [
        Math.max(crop[0], media[0]),
        Math.max(crop[1], media[1]),
        Math.min(crop[2], media[2]),
        Math.min(crop[3], media[3]),
      ]
    : media;
  const visible = shown[2] > shown[0] && shown[3] > shown[1] ? shown : media;
  const rotateValue = reader.resolve(inherited.get('Rotate') ?? 0);
  const rotate = typeof rotateValue === 'number' ? (((Math.round(rotateValue / 90) * 90) % 360) + 360) % 360 : 0;
  const contentsValue = dict.get('Contents');
  let contents: Value[] = [];
  if (contentsValue instanceof Ref) {
    const target = reader.resolve(contentsValue);
    if (Array.isArray(target)) contents = target;
    else if (target instanceof Stream) contents = [contentsValue];
    else if (target !== null) throw damaged('page 1 /Contents is neither a stream nor an array');
  } else if (Array.isArray(contentsValue)) contents = contentsValue;
  else if (contentsValue !== undefined && contentsValue !== null) throw damaged('page 1 /Contents is not a reference');
  for (const part of contents) {
    if (!(part instanceof Ref) || !(reader.resolve(part) instanceof Stream))
      throw damaged('page 1 /Contents names something that is not a stream');
  }
  const fonts = resources.get('Font');
  if (fonts !== undefined) reader.dict(fonts, 'the page fonts');
  return {
    ref,
    gen: entry?.type === 1 ? entry.gen : 0,
    dict,
    resources,
    contents,
    box: visible,
    rotate,
  };
}

function attempt(open: (reader: Reader) => void, bytes: Uint8Array, inflate: Inflate) {
  try {
    const reader = new Reader(bytes, inflate);
    open(reader);
    return { reader, page: firstPage(reader) };
  } catch (error) {
    if (error instanceof PdfProblem) throw error;
    throw damaged(String(error));
  }
}

/**
 * The reader and page 1: by the file's own cross-references, or, when they cannot be followed
 * in a file that still ends as a whole one (startxref, %%EOF), by its objects found where they
 * stand, as readers repair such files. A cut-short file (no startxref at its end) is refused.
 */
function read(bytes: Uint8Array, inflate: Inflate): { reader: Reader; page: FirstPage } {
  try {
    return attempt((reader) => reader.open(), bytes, inflate);
  } catch (error) {
    if (!(error instanceof PdfProblem) || error.reason !== 'damaged' || !endsWhole(bytes)) throw error;
    try {
      return attempt((reader) => recover(reader), bytes, inflate);
    } catch {
      throw error;
    }
  }
}

/** Reads what stamping needs (trailer, cross-reference chain, page 1); throws PdfProblem if it cannot be stamped. */
export function checkPdf(bytes: Uint8Array, inflate: Inflate): void {
  read(bytes, inflate);
}

// ---------------------------------------------------------------------------------------------
// Writing

const REGULAR = /^[!-~]$/;
function writeName(name: string): string {
  let out = '/';
  for (const ch of name) {
    const code = ch.charCodeAt(0);
    out += REGULAR.test(ch) && !DELIM[code] && ch !== '#' ? ch : `#${(code & 0xff).toString(16).padStart(2, '0')}`;
  }
  return out;
}

function writeNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return n.toFixed(6).replace(/0+$/, '').replace(/\.$/, '');
}

function writeValue(value: Value): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return writeNumber(value);
  if (value instanceof Name) return writeName(value.name);
  if (value instanceof Str) return `<${Array.from(value.bytes, (b) => b.toString(16).padStart(2, '0')).join('')}>`;
  if (value instanceof Ref) return `${value.num} ${value.gen} R`;
  if (Array.isArray(value)) return `[${value.map(writeValue).join(' ')}]`;
  if (value instanceof Dict) {
    return `<<${[...value.map].map(([k, v]) => `${writeName(k)} ${writeValue(v)}`).join(' ')}>>`;
  }
  throw new Error('a stream cannot be written inside another object');
}

/** Helvetica's advance widths (per 1000), codes 32–126, from its AFM. */
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556,
  556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833,
  722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556,
  556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334,
  260, 334, 584,
];

/** The line in WinAnsi (Latin-1 in 0xA0–0xFF): what Helvetica cannot show becomes "?". */
export function winAnsiBytes(text: string): number[] {
  return Array.from(text, (ch) => {
    const code = ch.codePointAt(0)!;
    return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) ? code : 0x3f;
  });
}

/** The width of WinAnsi codes in Helvetica at size 1 (Latin-1 letters counted as 556). */
export function helveticaWidth(codes: number[]): number {
  return codes.reduce((sum, code) => sum + (code <= 0x7e ? HELVETICA[code - 32]! : 556), 0) / 1000;
}

const literalString = (codes: number[]) =>
  `(${codes
    .map((c) =>
      c === 0x28 || c === 0x29 || c === 0x5c
        ? `\\${String.fromCharCode(c)}`
        : c > 0x7e
          ? `\\${c.toString(8).padStart(3, '0')}`
          : String.fromCharCode(c),
    )
    .join('')})`;

/**
 * The matrix from the page as shown (origin at its bottom-left as the reader sees it, x to the
 * right, y up) to the page's own space, for its crop box and /Rotate (clockwise).
 */
export function shownToPage(box: [number, number, number, number], rotate: number): number[] {
  const [x0, y0, x1, y1] = box;
  if (rotate === 90) return [0, 1, -1, 0, x1, y0];
  if (rotate === 180) return [-1, 0, 0, -1, x1, y1];
  if (rotate === 270) return [0, -1, 1, 0, x0, y1];
  return [1, 0, 0, 1, x0, y0];
}

const FONT_KEY = 'YYCLicence';

/** Page 1's dictionary again: its own copy of its fonts with the licence font, and its new Contents. */
function stampedPage(reader: Reader, page: FirstPage, refs: { font: Ref; open: Ref; stamp: Ref }) {
  const fontsValue = page.resources.get('Font');
  const fonts = new Dict(new Map(fontsValue === undefined ? [] : reader.dict(fontsValue, 'the page fonts').map));
  // A name page 1 does not use yet.
  let key = FONT_KEY;
  for (let i = 1; fonts.map.has(key); i += 1) key = `${FONT_KEY}${i}`;
  fonts.map.set(key, refs.font);
  const resources = new Dict(new Map(page.resources.map));
  resources.map.set('Font', fonts);
  const dict = new Dict(new Map(page.dict.map));
  dict.map.set('Resources', resources);
  dict.map.set('Contents', [refs.open, ...page.contents, refs.stamp]);
  return { dict, key };
}

/**
 * The content that draws the line: the state page 1's content left restored (`Q`, after the
 * `q` put before it), then the line 18 pt in and 12 pt up from the bottom-left of the page as
 * shown, 9 pt or smaller to fit.
 */
function drawing(page: FirstPage, line: string, key: string): string {
  const [x0, y0, x1, y1] = page.box;
  const shownWidth = page.rotate % 180 === 0 ? x1 - x0 : y1 - y0;
  const codes = winAnsiBytes(line);
  const fontSize = Math.max(6, Math.min(9, (shownWidth - 36) / Math.max(1, helveticaWidth(codes))));
  const matrix = shownToPage(page.box, page.rotate).map(writeNumber).join(' ');
  return (
    `Q\nq\n${matrix} cm\nBT\n0.25 g\n${writeName(key)} ${writeNumber(fontSize)} Tf\n` +
    `18 12 Td\n${literalString(codes)} Tj\nET\nQ\n`
  );
}

/** The appended bytes, as Latin-1 text, and where each object written lies in the whole file. */
class UpdateWriter {
  readonly offsets = new Map<number, { offset: number; gen: number }>();
  private readonly parts: string[] = [];
  position: number;

  constructor(private readonly original: Uint8Array) {
    this.position = original.length;
    const last = original[original.length - 1];
    if (last !== 10 && last !== 13) this.emit('\n');
  }

  emit(text: string): void {
    this.parts.push(text);
    this.position += text.length;
  }

  object(num: number, gen: number, body: string): void {
    this.offsets.set(num, { offset: this.position, gen });
    this.emit(`${num} ${gen} obj\n${body}\nendobj\n`);
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.position - this.original.length);
    let at = 0;
    for (const part of this.parts) {
      for (let i = 0; i < part.length; i += 1) out[at++] = part.charCodeAt(i);
    }
    return out;
  }
}

const streamBody = (content: string) => `<</Length ${content.length}>>\nstream\n${content}\nendstream`;

/** The update's trailer: Root and Info as they are, /ID with a new second string, /Prev. */
function updateTrailer(reader: Reader, seed: string): Dict {
  const trailer = new Dict();
  for (const name of ['Root', 'Info']) {
    const value = reader.trailer.get(name);
    if (value !== undefined) trailer.map.set(name, value);
  }
  // The identifier keeps its first string and gets a new second one, as the format asks of an
  // update (ISO 32000-1, 14.4).
  const id = reader.trailer.get('ID');
  if (Array.isArray(id) && id[0] instanceof Str) trailer.map.set('ID', [id[0], new Str(updateId(seed))]);
  if (reader.lastSection.form !== 'rebuilt') trailer.map.set('Prev', reader.lastSection.offset);
  return trailer;
}

/** A row of a cross-reference section: free, at an offset, or inside an object stream. */
type Row = { type: 0 } | { type: 1; offset: number; gen: number } | { type: 2; stream: number; index: number };

/**
 * The rows the update lists: the objects it writes; for a rebuilt file, every object found too
 * (the section then stands alone, with no /Prev), with object 0 as the free list's head.
 */
function updateRows(reader: Reader, writer: UpdateWriter): Map<number, Row> {
  const rows = new Map<number, Row>();
  if (reader.lastSection.form === 'rebuilt') {
    rows.set(0, { type: 0 });
    for (const [num, entry] of reader.entries) if (entry.type !== 0) rows.set(num, entry);
  }
  for (const [num, { offset, gen }] of writer.offsets) rows.set(num, { type: 1, offset, gen });
  return rows;
}

/** A cross-reference table and trailer for `rows` (no object-stream rows). */
function writeXrefTable(writer: UpdateWriter, trailer: Dict, rows: Map<number, Row>, size: number): void {
  trailer.map.set('Size', size);
  const xrefOffset = writer.position;
  writer.emit(`xref\n${xrefTable(rows)}trailer\n${writeValue(trailer)}\nstartxref\n${xrefOffset}\n%%EOF\n`);
}

/** A cross-reference stream (object `num`, listing itself too) for `rows`. */
function writeXrefStream(writer: UpdateWriter, trailer: Dict, rows: Map<number, Row>, num: number): void {
  const xrefOffset = writer.position;
  rows.set(num, { type: 1, offset: xrefOffset, gen: 0 });
  const nums = [...rows.keys()].sort((a, b) => a - b);
  let widest = xrefOffset;
  for (const row of rows.values()) if (row.type === 2 && row.stream > widest) widest = row.stream;
  const w1 = Math.max(1, Math.ceil(Math.log2(widest + 1) / 8));
  const data = new Uint8Array(nums.length * (3 + w1));
  let at = 0;
  for (const n of nums) {
    const row = rows.get(n)!;
    const [a, b] = row.type === 1 ? [row.offset, row.gen] : row.type === 2 ? [row.stream, row.index] : [0, 65535];
    data[at++] = row.type;
    for (let k = w1 - 1; k >= 0; k -= 1) data[at++] = Math.floor(a / 256 ** k) % 256;
    data[at++] = (b >> 8) & 0xff;
    data[at++] = b & 0xff;
  }
  trailer.map.set('Type', new Name('XRef'));
  trailer.map.set('Size', Math.max(num, nums[nums.length - 1]!) + 1);
  trailer.map.set(
    'Index',
    subsections(nums).flatMap(([start, count]) => [start, count]),
  );
  trailer.map.set('W', [1, w1, 2]);
  trailer.map.set('Length', data.length);
  writer.emit(`${num} 0 obj\n${writeValue(trailer)}\nstream\n`);
  writer.emit(latin1(data, 0, data.length));
  writer.emit(`\nendstream\nendobj\nstartxref\n${xrefOffset}\n%%EOF\n`);
}

/** The incremental update drawing `line` at the foot of page 1: the bytes to append after `bytes`. */
export function stampUpdate(bytes: Uint8Array, line: string, inflate: Inflate): Uint8Array {
  const { reader, page } = read(bytes, inflate);
  const declared = reader.trailer.get('Size');
  let next = typeof declared === 'number' ? declared : 0;
  for (const num of reader.entries.keys()) if (num >= next) next = num + 1;
  const refs = { font: new Ref(next, 0), open: new Ref(next + 1, 0), stamp: new Ref(next + 2, 0) };

  const { dict, key } = stampedPage(reader, page, refs);
  const draw = drawing(page, line, key);
  const writer = new UpdateWriter(bytes);
  writer.object(refs.font.num, 0, '<</Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding>>');
  writer.object(refs.open.num, 0, streamBody('q\n'));
  writer.object(refs.stamp.num, 0, streamBody(draw));
  writer.object(page.ref.num, page.gen, writeValue(dict));

  const trailer = updateTrailer(reader, `${bytes.length} ${line} ${draw}`);
  const rows = updateRows(reader, writer);
  const inStreams = [...rows.values()].some((row) => row.type === 2);
  const form = reader.lastSection.form === 'rebuilt' ? (inStreams ? 'stream' : 'table') : reader.lastSection.form;
  if (form === 'table') writeXrefTable(writer, trailer, rows, refs.stamp.num + 1);
  else writeXrefStream(writer, trailer, rows, refs.stamp.num + 1);
  return writer.bytes();
}

/** 16 bytes that differ with the update (FNV-1a, four seeds): an identifier, not a secret. */
function updateId(text: string): Uint8Array {
  const out = new Uint8Array(16);
  for (let part = 0; part < 4; part += 1) {
    let hash = (0x811c9dc5 ^ (part * 0x9e3779b9)) >>> 0;
    for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
    for (let k = 0; k < 4; k += 1) out[part * 4 + k] = (hash >>> (8 * k)) & 0xff;
  }
  return out;
}

function subsections(nums: number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const num of nums) {
    const run = runs[runs.length - 1];
    if (run && run[0] + run[1] === num) run[1] += 1;
    else runs.push([num, 1]);
  }
  return runs;
}

function xrefTable(rows: Map<number, Row>): string {
  const nums = [...rows.keys()].sort((a, b) => a - b);
  const lines: string[] = [];
  let i = 0;
  for (const [start, count] of subsections(nums)) {
    lines.push(`${start} ${count}\n`);
    for (const end = i + count; i < end; i += 1) {
      const row = rows.get(nums[i]!)!;
      const [a, b, kind] = row.type === 1 ? [row.offset, row.gen, 'n'] : [0, 65535, 'f'];
      lines.push(`${String(a).padStart(10, '0')} ${String(b).padStart(5, '0')} ${kind}\r\n`);
    }
  }
  return lines.join('');
}
