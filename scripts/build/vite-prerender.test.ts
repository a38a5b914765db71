import { describe, expect, it } from 'vitest';
import { pageHtml, shellHtml } from './vite-prerender.mjs';
import { notFoundFor, rewriteFor } from './vite-security-headers.mjs';

const template = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta
      name="description"
      content="index.html's description"
    />
    <title>Index title</title>
    <script type="module" crossorigin src="/assets/index-a.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-b.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

describe('pageHtml', () => {
  const html = pageHtml(template, {
    html: '<main><h1>Price: $24.95 $&</h1></main>',
    head: '<title>Page</title>\n    <meta name="description" content="Page" data-page-head />',
    css: 'a{color:red}/* $& */',
    preload: ['/assets/bundles-c.js'],
  });

  it('puts the page in #root and its head tags in place of index.html’s title and description', () => {
    expect(html).toContain('<div id="root"><main><h1>Price: $24.95 $&</h1></main></div>');
    expect(html.match(/<title>/g)).toEqual(['<title>']);
    expect(html).toContain('<title>Page</title>');
    expect(html).not.toContain("index.html's description");
  });

  it('inlines the stylesheet and preloads the route chunk, leaving the module script as it was', () => {
    expect(html).toContain('<style>a{color:red}/* $& */</style>');
    expect(html).not.toContain('rel="stylesheet"');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/bundles-c.js">');
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-a.js"></script>');
  });

  it('refuses a template it cannot fill', () => {
    const page = { html: '', head: '', css: '', preload: [] };
    expect(() => pageHtml(template.replace('<div id="root"></div>', '<div id="app"></div>'), page)).toThrow(/#root/);
    expect(() => pageHtml(template.replace(/<link rel="stylesheet"[^>]*>/, ''), page)).toThrow(/stylesheet/);
  });
});

describe('pageHtml headEnd', () => {
  it('ends the head with what a public page adds (its speculation rules); nothing by default', () => {
    const page = { html: '<h1>x</h1>', head: '<title>x</title>', css: '', preload: [] };
    const rules = '<script type="speculationrules">{}</script>';
    expect(pageHtml(template, { ...page, headEnd: rules })).toContain(`${rules}\n  </head>`);
    expect(pageHtml(template, page)).not.toContain('speculationrules');
  });
});

describe('pageHtml script', () => {
  it('gives a document its own script in place of the boot script, its static imports preloaded beside it', () => {
    const page = { html: '<h1>x</h1>', head: '<title>x</title>', css: '', preload: [] };
    const document = pageHtml(template, {
      ...page,
      script: '/assets/document-d.js',
      scriptImports: ['/assets/shared-e.js'],
    });
    expect(document).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/shared-e.js"><script type="module" async crossorigin src="/assets/document-d.js"></script>',
    );
    expect(document).not.toContain('/assets/index-a.js');
    expect(pageHtml(template, page)).toContain('<script type="module" crossorigin src="/assets/index-a.js"></script>');
    expect(() =>
      pageHtml(template.replace(/<script type="module"[^>]*><\/script>/, ''), { ...page, script: '/d.js' }),
    ).toThrow(/module script/);
  });
});

describe('shellHtml', () => {
  it('keeps the empty shell out of search results', () => {
    const shell = shellHtml(template);
    expect(shell).toContain('<meta name="robots" content="noindex" />\n  </head>');
    expect(shell).toContain('<div id="root"></div>');
  });
});

describe('rewriteFor (the preview follows dist/_redirects)', () => {
  it('answers a path without a file with the shell', () => {
    expect(rewriteFor('/*  /spa.html  200\n', '/resources')).toBe('/spa.html');
    expect(rewriteFor('# comment\n/old  /new  301\n', '/old')).toBeUndefined();
  });

  it('answers a missing /assets/ file 404 when the first matching rule says so, and nothing else', () => {
    const redirects = '/assets/*  /404.html  404\n/*  /spa.html  200\n';
    expect(notFoundFor(redirects, '/assets/gone-abc123.js')).toBe(true);
    expect(notFoundFor(redirects, '/resources')).toBe(false);
    expect(notFoundFor('/*  /spa.html  200\n', '/assets/gone-abc123.js')).toBe(false);
  });
});
