import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  BUDGETS,
  checkBudgets,
  formatReport,
  gzipSize,
  htmlTags,
  firstLoadChunks,
  initialChunks,
  packageOf,
  renderBlocking,
  unsizedMediaInHtml,
  unsizedMediaInJsx,
} from './check-budgets.mjs';
import { chunkMapOf } from '../build/vite-chunk-map.mjs';

const fixtures = fileURLToPath(new URL('./fixtures/budgets', import.meta.url));
/** A lean build: prerendered pages, supabase-js only behind `import()`. */
const lean = path.join(fixtures, 'lean');
/** The build before: an empty index.html, supabase-js and react-query in the entry. */
const heavy = path.join(fixtures, 'heavy');

const messages = (result: ReturnType<typeof checkBudgets>, check?: string) =>
  result.failures.filter((failure) => !check || failure.check === check).map((failure) => failure.message);

describe('checkBudgets on a lean build', () => {
  it('passes, and measures each public page', () => {
    const result = checkBudgets({ distDir: lean });
    expect(messages(result)).toEqual([]);
    expect(result.measurements.map((m) => m.route)).toEqual(['/', '/bundles', '/upgrade', '/privacy', '/auth']);
    expect(formatReport(result)).toContain('All budgets met.');
  });

  it('counts a document’s own script and its static imports, and for /auth the boot script, the app and the route', () => {
    const byRoute = Object.fromEntries(checkBudgets({ distDir: lean }).measurements.map((m) => [m.route, m.chunks]));
    expect(byRoute['/']).toEqual(['assets/document.js']);
    expect(byRoute['/bundles']).toEqual(['assets/document.js']);
    // The auth route's supabase chunk is imported with import(): not initial.
    expect(byRoute['/auth']).toEqual(['assets/auth.js', 'assets/entry.js', 'assets/react.js', 'assets/start.js']);
  });

  it('measures gzip sizes of the initial JavaScript, the page’s CSS and its HTML', () => {
    const read = (file: string) => readFileSync(path.join(lean, file));
    const { measurements } = checkBudgets({ distDir: lean });
    const home = measurements.find((m) => m.route === '/');
    expect(home?.js).toBe(gzipSize(read('assets/document.js')));
    expect(home?.html).toBe(gzipSize(read('index.html')));
    // The page inlines its CSS and links none: the entry's stylesheet is not counted twice.
    const inline = /<style>([\s\S]*?)<\/style>/.exec(read('index.html').toString())?.[1] ?? '';
    expect(home?.css).toBe(gzipSize(inline));
    const auth = measurements.find((m) => m.route === '/auth');
    const authChunks = ['assets/auth.js', 'assets/entry.js', 'assets/react.js', 'assets/start.js'];
    expect(auth?.js).toBe(authChunks.reduce((sum, file) => sum + gzipSize(read(file)), 0));
  });

  it('measures the first-load JavaScript: the script the page’s HTML loads and its static imports', () => {
    const read = (file: string) => readFileSync(path.join(lean, file));
    const { measurements } = checkBudgets({ distDir: lean });
    const documentScript = gzipSize(read('assets/document.js'));
    expect(measurements.map((m) => [m.route, m.firstLoad])).toEqual([
      ['/', documentScript],
      ['/bundles', documentScript],
      ['/upgrade', documentScript],
      ['/privacy', documentScript],
      ['/auth', gzipSize(read('assets/entry.js'))],
    ]);
  });

  it('fails when the first-load JavaScript outgrows its budget', () => {
    const result = checkBudgets({
      distDir: lean,
      budgets: { ...BUDGETS, firstLoad: { ...BUDGETS.firstLoad, '/': 10 } },
    });
    expect(messages(result, 'js')).toEqual([
      expect.stringMatching(/^\/: first-load JavaScript \(assets\/document\.js\) [\d.]+ kB > budget 0\.0 kB/),
    ]);
  });

  it('counts a linked stylesheet as the page’s CSS', () => {
    const home = checkBudgets({ distDir: heavy }).measurements.find((m) => m.route === '/');
    expect(home?.css).toBe(gzipSize(readFileSync(path.join(heavy, 'assets/app.css'), 'utf8')));
  });

  it('fails, naming the page and the figure, when a page outgrows a budget', () => {
    const tiny = {
      ...BUDGETS,
      js: { ...BUDGETS.js, '/auth': 10 },
      css: { ...BUDGETS.css, '/auth': 10 },
      html: { ...BUDGETS.html, '/': 10 },
    };
    const result = checkBudgets({ distDir: lean, budgets: tiny });
    expect(messages(result, 'js')).toEqual([
      expect.stringMatching(/^\/auth: initial JavaScript \(assets\/auth\.js, .*\) [\d.]+ kB > budget 0\.0 kB/),
    ]);
    expect(messages(result, 'css')).toEqual([expect.stringMatching(/^\/auth: CSS [\d.]+ kB > budget/)]);
    expect(messages(result, 'html')).toEqual([expect.stringMatching(/^\/: HTML \(index\.html\) [\d.]+ kB > budget/)]);
  });
});

describe('checkBudgets on the build before prerendering', () => {
  const result = checkBudgets({ distDir: heavy });

  it('names each forbidden module, React included, in the initial chunks of /, /bundles, /upgrade and /privacy (not /auth)', () => {
    expect(messages(result, 'forbidden')).toEqual([
      '/: supabase-js is in the initial chunks (assets/supabase.js)',
      '/: zod is in the initial chunks (assets/supabase.js)',
      '/: @tanstack/react-query is in the initial chunks (assets/supabase.js)',
      '/: react is in the initial chunks (assets/react.js)',
      '/bundles: supabase-js is in the initial chunks (assets/supabase.js)',
      '/bundles: zod is in the initial chunks (assets/supabase.js)',
      '/bundles: @tanstack/react-query is in the initial chunks (assets/supabase.js)',
      '/bundles: react is in the initial chunks (assets/react.js)',
      '/upgrade: supabase-js is in the initial chunks (assets/supabase.js)',
      '/upgrade: zod is in the initial chunks (assets/supabase.js)',
      '/upgrade: @tanstack/react-query is in the initial chunks (assets/supabase.js)',
      '/upgrade: react is in the initial chunks (assets/react.js)',
      '/privacy: supabase-js is in the initial chunks (assets/supabase.js)',
      '/privacy: zod is in the initial chunks (assets/supabase.js)',
      '/privacy: @tanstack/react-query is in the initial chunks (assets/supabase.js)',
      '/privacy: react is in the initial chunks (assets/react.js)',
    ]);
  });

  it('names each missing page and each missing tag of a prerendered page', () => {
    expect(messages(result, 'prerender')).toEqual([
      '/: the prerendered HTML (index.html) has no <h1>',
      '/: the prerendered HTML (index.html) has no meta description',
      '/: the prerendered HTML (index.html) has no canonical link',
      '/: the prerendered HTML (index.html) has no og:title',
      '/: the prerendered HTML (index.html) has no og:description',
      '/: the prerendered HTML (index.html) has no og:url',
      '/: the prerendered HTML (index.html) has no og:type',
      '/: the prerendered HTML (index.html) has no og:image',
      '/: the prerendered HTML (index.html) has no twitter:card',
      '/bundles: no prerendered HTML (dist/bundles/index.html or dist/bundles.html)',
      '/upgrade: the prerendered HTML (upgrade.html) has no meta description',
      '/upgrade: the prerendered HTML (upgrade.html) has no canonical link',
      '/upgrade: the prerendered HTML (upgrade.html) has no og:title',
      '/upgrade: the prerendered HTML (upgrade.html) has no og:description',
      '/upgrade: the prerendered HTML (upgrade.html) has no og:url',
      '/upgrade: the prerendered HTML (upgrade.html) has no og:type',
      '/upgrade: the prerendered HTML (upgrade.html) has no og:image',
      '/upgrade: the prerendered HTML (upgrade.html) has no twitter:card',
      '/privacy: no prerendered HTML (dist/privacy/index.html or dist/privacy.html)',
      '/auth: no prerendered HTML (dist/auth/index.html or dist/auth.html)',
    ]);
  });

  it('names unsized images and frames in the prerendered HTML', () => {
    expect(messages(result, 'media')).toEqual([
      '/upgrade (upgrade.html): <img src="/cover.svg"> has no width and height',
      '/upgrade (upgrade.html): <iframe src="https://www.youtube-nocookie.com/embed/x"> has no width and height',
    ]);
  });

  it('prints every failure in its report', () => {
    const report = formatReport(result);
    expect(report).toContain(`${result.failures.length} budget failure(s):`);
    for (const failure of result.failures) expect(report).toContain(failure.message);
  });

  it('fails outright when the build has no chunk map', () => {
    expect(messages(checkBudgets({ distDir: path.join(fixtures, 'src') }))).toEqual([
      expect.stringContaining('.vite/chunk-map.json is missing'),
    ]);
  });
});

describe('unsized media in the source', () => {
  it('names each <img> and <iframe> without a width and a height, by file and line, skipping tests', () => {
    const result = checkBudgets({ distDir: lean, srcDir: path.join(fixtures, 'src') });
    expect(messages(result, 'media')).toEqual([
      'src/pages/unsized.tsx:6 <img> has no height',
      'src/pages/unsized.tsx:7 <iframe> has no width or height',
      'src/pages/unsized.tsx:8 <img> has no width or height',
    ]);
  });

  it('reads JSX, not text: an arrow function in an attribute does not end the tag', () => {
    const source = 'export const A = () => <img onError={() => null} src="/a.png" width={1} height={1} alt="" />;';
    expect(unsizedMediaInJsx('a.tsx', source)).toEqual([]);
    expect(unsizedMediaInJsx('b.tsx', source.replace('height={1} ', ''))).toEqual(['b.tsx:1 <img> has no height']);
  });

  it('reads HTML attributes in any quoting, and a quoted > does not end the tag', () => {
    expect(unsizedMediaInHtml('p', `<img alt="a > b" src=x.png width='1' height=2>`)).toEqual([]);
    expect(htmlTags(`<META Property="og:title" content="A &amp; B">`, 'meta')).toEqual([
      { property: 'og:title', content: 'A &amp; B' },
    ]);
  });
});

describe('the module → chunk map', () => {
  it('keeps a route’s import() chunks out of its initial set, and follows static imports through', () => {
    const map = {
      version: 1 as const,
      chunks: {
        'e.js': chunk({ isEntry: true, imports: ['shared.js'], dynamicImports: ['r.js'] }),
        'shared.js': chunk({ imports: ['deep.js'] }),
        'deep.js': chunk({}),
        'r.js': chunk({ isDynamicEntry: true, facadeModuleId: 'src/app/routes/r.tsx', imports: ['e.js', 'rx.js'] }),
        'rx.js': chunk({}),
        'other.js': chunk({ isDynamicEntry: true, facadeModuleId: 'src/app/routes/other.tsx' }),
      },
    };
    expect(initialChunks(map, 'src/app/routes/r.tsx')).toEqual(['deep.js', 'e.js', 'r.js', 'rx.js', 'shared.js']);
    expect(initialChunks(map, 'src/app/routes/home.tsx')).toEqual(['deep.js', 'e.js', 'shared.js']);
  });

  it('counts the app’s chunk, which the boot script imports, as hydrating every route, but not as first load', () => {
    const map = {
      version: 1 as const,
      chunks: {
        'boot.js': chunk({ isEntry: true, dynamicImports: ['start.js'] }),
        'start.js': chunk({ isDynamicEntry: true, facadeModuleId: 'src/app/start.tsx', imports: ['react.js'] }),
        'react.js': chunk({}),
        'r.js': chunk({ isDynamicEntry: true, facadeModuleId: 'src/app/routes/r.tsx', imports: ['react.js'] }),
      },
    };
    expect(firstLoadChunks(map)).toEqual(['boot.js']);
    expect(initialChunks(map, 'src/app/routes/home.tsx')).toEqual(['boot.js', 'react.js', 'start.js']);
    expect(initialChunks(map, 'src/app/routes/r.tsx')).toEqual(['boot.js', 'r.js', 'react.js', 'start.js']);
  });

  it('records a bundle’s chunks with root-relative module names, leaving out code tree-shaken to nothing', () => {
    const root = '/repo';
    const map = chunkMapOf(root, {
      'assets/index.js': {
        type: 'chunk',
        fileName: 'assets/index.js',
        isEntry: true,
        isDynamicEntry: false,
        facadeModuleId: '/repo/index.html',
        imports: ['assets/vendor.js'],
        dynamicImports: [],
        viteMetadata: { importedCss: new Set(['assets/index.css']) },
        modules: {
          '/repo/src/main.tsx': { renderedLength: 120 },
          '/repo/node_modules/zod/v4/index.js': { renderedLength: 0 },
          '\0vite/preload-helper.js': { renderedLength: 80 },
          '/repo/src/index.css?direct': { renderedLength: 5 },
        },
      },
      'assets/index.css': { type: 'asset', fileName: 'assets/index.css' },
    });
    expect(map.chunks).toEqual({
      'assets/index.js': {
        isEntry: true,
        isDynamicEntry: false,
        facadeModuleId: 'index.html',
        imports: ['assets/vendor.js'],
        dynamicImports: [],
        css: ['assets/index.css'],
        modules: ['src/index.css', 'src/main.tsx', 'vite/preload-helper.js'],
      },
    });
  });

  it('tells which package a module belongs to', () => {
    expect(packageOf('node_modules/@supabase/auth-js/dist/main.js')).toBe('@supabase/auth-js');
    expect(packageOf('node_modules/.pnpm/zod@4/node_modules/zod/v4/index.js')).toBe('zod');
    expect(packageOf('src/lib/supabase.ts')).toBeNull();
  });
});

function chunk(partial: {
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  facadeModuleId?: string;
  imports?: string[];
  dynamicImports?: string[];
}) {
  return {
    isEntry: partial.isEntry ?? false,
    isDynamicEntry: partial.isDynamicEntry ?? false,
    facadeModuleId: partial.facadeModuleId ?? null,
    imports: partial.imports ?? [],
    dynamicImports: partial.dynamicImports ?? [],
    css: [],
    modules: [],
  };
}

describe('render-blocking resources in a prerendered page', () => {
  it('names a classic script without defer or async and a stylesheet link, and allows module, deferred and print ones', () => {
    const html = [
      '<script type="module" src="/assets/index.js"></script>',
      '<script defer src="/a.js"></script>',
      '<script async src="/b.js"></script>',
      '<script src="/blocking.js"></script>',
      '<link rel="stylesheet" href="/assets/index.css">',
      '<link rel="stylesheet" href="/print.css" media="print">',
      '<link rel="modulepreload" href="/assets/home.js">',
    ].join('');
    expect(renderBlocking(html)).toEqual([
      'a render-blocking <script src="/blocking.js">',
      'a render-blocking stylesheet <link href="/assets/index.css">',
    ]);
  });
});
