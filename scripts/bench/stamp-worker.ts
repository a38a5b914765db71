// `npm run bench:stamp`'s Deno half (scripts/bench/bench-stamp.mjs runs it): the download
// function's own stamping code, in the runtime the function runs in.
//
//   make <dir>     writes the fixtures: PDFs of 1 MB, 20 MB (300 pages) and 50 MB, and an EPUB
//   stamp <file>   stamps one file in this fresh process and prints, as JSON, the CPU time,
//                  wall time and peak resident memory of doing it, and the output's size
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import process from 'node:process';
import { makeEpub, makePdf } from '../../supabase/functions/download/fixtures.ts';
import { licenceLine, stamp, stampKind } from '../../supabase/functions/download/stamp.ts';

const MB = 1_000_000;

export const FIXTURES = [
  { file: 'pdf-1mb.pdf', pages: 20, bytes: 1 * MB },
  { file: 'pdf-20mb.pdf', pages: 300, bytes: 20 * MB },
  { file: 'pdf-50mb.pdf', pages: 600, bytes: 50 * MB },
] as const;

async function make(dir: string) {
  for (const fixture of FIXTURES) {
    await writeFile(`${dir}/${fixture.file}`, await makePdf({ pages: fixture.pages, bytes: fixture.bytes }));
  }
  await writeFile(`${dir}/book.epub`, makeEpub(40));
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

async function stampOne(file: string) {
  const kind = stampKind(file, null);
  if (!kind) throw new Error(`${file}: not a PDF or an EPUB`);
  const bytes = new Uint8Array(await readFile(file));
  const cpu = process.cpuUsage();
  const started = performance.now();
  const out = await stamp(kind, bytes, licenceLine('reader@example.com', new Date()));
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  console.log(
    JSON.stringify({
      inBytes: bytes.length,
      outBytes: out.length,
      cpuMs: (used.user + used.system) / 1000,
      wallMs,
      peakBytes: peakBytes(),
    }),
  );
}

const [command, target] = process.argv.slice(2);
if (command === 'make' && target) await make(target);
else if (command === 'stamp' && target) await stampOne(target);
else throw new Error('usage: stamp-worker.ts make <dir> | stamp <file>');
