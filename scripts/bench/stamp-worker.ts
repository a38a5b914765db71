// `npm run bench:stamp`'s Deno half (scripts/bench/bench-stamp.mjs runs it): the download
// function's own stamping code, in the runtime the function runs in.
//
//   make <dir>      writes the fixtures (supabase/functions/download/book-fixtures.ts, each
//                   streamed to disk chunk by chunk) and an EPUB
//   baseline        a fresh process that loads the stamping code and reads nothing: its peak
//                   resident memory (VmHWM) and CPU time, what Deno itself costs
//   stamp <file>    reads the file once and stamps it (stamp() from download/stamp.ts), in this
//                   fresh process, and prints as JSON: the stamp's CPU and wall time, the whole
//                   process's CPU time (start-up, reading and stamping) and its peak resident
//                   memory (VmHWM), the input's size and the stamped copy's (the sum of its
//                   parts, which are not joined: the file is held once, as the function does)
//
// Fixture code is imported only by `make`, so it adds nothing to `baseline` or `stamp`.
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import process from 'node:process';
import { licenceLine, stamp, stampKind } from '../../supabase/functions/download/stamp.ts';

/** The PDF fixtures, by file name: the book-fixtures preset each is made from. */
export const BOOKS = {
  'real-book.pdf': 'REAL_BOOK',
  'big-book.pdf': 'BIG_BOOK',
  'linearized.pdf': 'LINEARIZED',
  'updated.pdf': 'UPDATED',
  'hybrid.pdf': 'HYBRID',
  'classic.pdf': 'CLASSIC',
} as const;

const FONT = new URL('../../node_modules/pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf', import.meta.url);

async function make(dir: string) {
  const fixtures = await import('../../supabase/functions/download/book-fixtures.ts');
  const { makeEpub } = await import('../../supabase/functions/download/fixtures.ts');
  const font = new Uint8Array(readFileSync(FONT));
  for (const [file, preset] of Object.entries(BOOKS)) {
    const fd = openSync(`${dir}/${file}`, 'w');
    try {
      fixtures.writeBook({ font, ...fixtures[preset] }, (chunk) => {
        for (let at = 0; at < chunk.length;) at += writeSync(fd, chunk, at, chunk.length - at);
      });
    } finally {
      closeSync(fd);
    }
  }
  writeFileSync(`${dir}/book.epub`, makeEpub(40));
}

/** Peak resident memory of this process (Linux's VmHWM), else the resident memory now. */
function peakBytes(): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb) return Number(kb) * 1024;
  } catch {
    // not Linux
  }
  return process.memoryUsage().rss;
}

/** CPU time of this process since it started, in ms. */
function processCpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

function baseline() {
  console.log(JSON.stringify({ processCpuMs: processCpuMs(), peakBytes: peakBytes() }));
}

async function stampOne(file: string) {
  const kind = stampKind(file, null);
  if (!kind) throw new Error(`${file}: not a PDF or an EPUB`);
  // A Buffer is a Uint8Array: no copy.
  const bytes: Uint8Array = readFileSync(file);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const parts = await stamp(kind, bytes, licenceLine('reader@example.com', new Date()));
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  console.log(
    JSON.stringify({
      inBytes: bytes.length,
      outBytes: parts.reduce((sum, part) => sum + part.length, 0),
      cpuMs: (used.user + used.system) / 1000,
      wallMs,
      processCpuMs: processCpuMs(),
      peakBytes: peakBytes(),
    }),
  );
}

const [command, target] = process.argv.slice(2);
if (command === 'make' && target) await make(target);
else if (command === 'baseline') baseline();
else if (command === 'stamp' && target) await stampOne(target);
else throw new Error('usage: stamp-worker.ts make <dir> | baseline | stamp <file>');
