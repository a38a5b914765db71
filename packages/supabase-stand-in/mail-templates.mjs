// @ts-check
// The auth e-mails as the hosted auth server sends them: the subject from supabase/config.toml
// ([auth.email.template.<kind>] subject) and the body from the file its content_path names, both
// Go templates rendered with the variables GoTrue passes that kind of mail. So the stand-in's
// inbox shows what buyers will see, and a template that the hosted server could not render (a
// syntax error, or a variable it never passes, which html/template would print as nothing) is
// refused here and by tests/mail-templates.test.ts.
//
// GoTrue (github.com/supabase/auth) parses each subject and body with Go's html/template
// (internal/mailer/templatemailer/template.go, loadEntrySubject / loadEntryBody) and executes it
// with a map of variables (templatemailer.go: InviteMail, ConfirmationMail, RecoveryMail,
// MagicLinkMail, EmailChangeMail, ReauthenticateMail). This file reads the subset of Go's template
// language an e-mail needs: text, `{{ .Var }}` and `{{ .Data.key }}`, `{{ if .Var }}` /
// `{{ else if .Var }}` / `{{ else }}` / `{{ end }}`, comments `{{/* … */}}` and the `{{-` / `-}}`
// trim markers. Anything else (pipelines, functions, range, with, define) is refused rather than
// guessed at: use it only after teaching this file, so the test keeps proving what GoTrue renders.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseToml } from 'smol-toml';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository's root: the CLI resolves a template's content_path from the folder holding supabase/. */
export const REPO_ROOT = path.resolve(here, '..', '..');
const CONFIG_TOML = path.join(REPO_ROOT, 'supabase', 'config.toml');

/**
 * The variables GoTrue passes each kind of mail (internal/mailer/templatemailer/templatemailer.go).
 * `Data` is the user's user_metadata, a map: `{{ .Data.key }}` reads one of its keys.
 * @type {Readonly<Record<MailKind, readonly string[]>>}
 */
export const TEMPLATE_VARIABLES = Object.freeze({
  invite: ['SiteURL', 'ConfirmationURL', 'Email', 'Token', 'TokenHash', 'Data', 'RedirectTo'],
  confirmation: ['SiteURL', 'ConfirmationURL', 'Email', 'Token', 'TokenHash', 'Data', 'RedirectTo'],
  recovery: ['SiteURL', 'ConfirmationURL', 'Email', 'Token', 'TokenHash', 'Data', 'RedirectTo'],
  magic_link: ['SiteURL', 'ConfirmationURL', 'Email', 'Token', 'TokenHash', 'Data', 'RedirectTo'],
  email_change: [
    'SiteURL',
    'ConfirmationURL',
    'Email',
    'NewEmail',
    'Token',
    'TokenHash',
    'SendingTo',
    'Data',
    'RedirectTo',
  ],
  reauthentication: ['SiteURL', 'Email', 'Token', 'Data'],
});

/**
 * @typedef {'invite' | 'confirmation' | 'recovery' | 'magic_link' | 'email_change' | 'reauthentication'} MailKind
 * @typedef {{ type: 'text', text: string }
 *   | { type: 'field', path: string[] }
 *   | { type: 'if', branches: { cond: string[] | null, body: Node[] }[] }} Node
 * @typedef {Record<string, unknown>} MailData
 * @typedef {{ subject: string, html: string, text: string }} RenderedMail
 */

/** A template GoTrue could not render as intended. */
export class TemplateError extends Error {}

/**
 * One action's words: `.Field.key` as a path, or a keyword.
 * @param {string} words
 * @param {string} where
 * @returns {string[]}
 */
function fieldPath(words, where) {
  if (!/^(\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(words))
    throw new TemplateError(
      `${where}: "{{ ${words} }}" is not a field such as {{ .Email }} (this checker reads fields only)`,
    );
  return words.slice(1).split('.');
}

/**
 * Parses the Go-template subset above. Throws a TemplateError for an action left open, an `end`
 * or `else` without its `if`, an `if` never ended, or an action this subset does not read.
 * @param {string} source
 * @param {string} [name] for messages
 * @returns {Node[]}
 */
export function parseGoTemplate(source, name = 'template') {
  /** @type {Node[]} */
  const root = [];
  /** @type {{ node: Extract<Node, { type: 'if' }>, line: number }[]} */
  const open = [];
  /** @returns {Node[]} */
  const target = () => {
    const top = open.at(-1);
    return top ? /** @type {Node[]} */ (top.node.branches.at(-1)?.body) : root;
  };
  let pos = 0;
  let trimNextText = false;
  const lineAt = (/** @type {number} */ i) => source.slice(0, i).split('\n').length;
  while (pos <= source.length) {
    const start = source.indexOf('{{', pos);
    let text = source.slice(pos, start === -1 ? source.length : start);
    if (trimNextText) text = text.replace(/^\s+/, '');
    const closeInText = text.indexOf('}}');
    if (closeInText !== -1)
      throw new TemplateError(`${name}:${lineAt(pos + closeInText)}: "}}" without an opening "{{"`);
    if (start === -1) {
      if (text) target().push({ type: 'text', text });
      break;
    }
    const end = source.indexOf('}}', start + 2);
    if (end === -1) throw new TemplateError(`${name}:${lineAt(start)}: "{{" is never closed`);
    let inner = source.slice(start + 2, end);
    // Go's trim markers are "{{- " and " -}}": the dash and a space (or newline) beside it.
    const trimLeft = /^-\s/.test(inner);
    const trimRight = /\s-$/.test(inner);
    if (trimLeft) {
      text = text.replace(/\s+$/, '');
      inner = inner.slice(1);
    }
    if (trimRight) inner = inner.slice(0, -1);
    if (text) target().push({ type: 'text', text });
    trimNextText = trimRight;
    const line = lineAt(start);
    const where = `${name}:${line}`;
    const words = inner.trim();
    if (inner.includes('{{')) throw new TemplateError(`${where}: "{{" inside an action`);
    pos = end + 2;
    if (/^\/\*[\s\S]*\*\/$/.test(words)) continue;
    if (words === '') throw new TemplateError(`${where}: empty action "{{}}"`);
    const [keyword, ...rest] = words.split(/\s+/);
    const argument = rest.join(' ');
    if (keyword === 'if') {
      /** @type {Extract<Node, { type: 'if' }>} */
      const node = { type: 'if', branches: [{ cond: fieldPath(argument, where), body: [] }] };
      target().push(node);
      open.push({ node, line });
    } else if (keyword === 'else') {
      const top = open.at(-1);
      if (!top) throw new TemplateError(`${where}: "else" without "if"`);
      if (top.node.branches.at(-1)?.cond === null) throw new TemplateError(`${where}: a second "else" in one "if"`);
      if (rest[0] === 'if') top.node.branches.push({ cond: fieldPath(rest.slice(1).join(' '), where), body: [] });
      else if (argument === '') top.node.branches.push({ cond: null, body: [] });
      else throw new TemplateError(`${where}: "else ${argument}" is not "else" or "else if"`);
    } else if (keyword === 'end') {
      if (argument) throw new TemplateError(`${where}: "end" takes nothing`);
      if (!open.pop()) throw new TemplateError(`${where}: "end" without "if"`);
    } else if (keyword?.startsWith('.')) {
      target().push({ type: 'field', path: fieldPath(words, where) });
    } else {
      throw new TemplateError(`${where}: "{{ ${words} }}" is not read by this checker (fields, if/else/end, comments)`);
    }
  }
  const unclosed = open.at(-1);
  if (unclosed) throw new TemplateError(`${name}:${unclosed.line}: "if" is never ended with "{{ end }}"`);
  return root;
}

/**
 * Every field a parsed template reads, as `Name` or `Data.key`.
 * @param {Node[]} nodes
 * @returns {string[][]}
 */
export function templateFields(nodes) {
  /** @type {string[][]} */
  const fields = [];
  for (const node of nodes) {
    if (node.type === 'field') fields.push(node.path);
    else if (node.type === 'if')
      for (const branch of node.branches) {
        if (branch.cond) fields.push(branch.cond);
        fields.push(...templateFields(branch.body));
      }
  }
  return fields;
}

/**
 * Parses `source` and checks that every field is one GoTrue passes a `kind` mail.
 * @param {MailKind} kind
 * @param {string} source
 * @param {string} [name]
 * @returns {Node[]}
 */
export function checkTemplate(kind, source, name = kind) {
  const nodes = parseGoTemplate(source, name);
  const allowed = TEMPLATE_VARIABLES[kind];
  if (!allowed) throw new TemplateError(`${name}: GoTrue sends no "${kind}" mail`);
  for (const field of templateFields(nodes)) {
    const [head, ...tail] = field;
    if (!head || !allowed.includes(head))
      throw new TemplateError(
        `${name}: {{ .${field.join('.')} }} is not a variable GoTrue passes the ${kind} mail (${allowed.join(', ')})`,
      );
    if (head !== 'Data' && tail.length)
      throw new TemplateError(`${name}: {{ .${field.join('.')} }}: .${head} is a string, it has no fields`);
  }
  return nodes;
}

/** html/template's escaping of a value printed into HTML text or a quoted attribute. */
function escapeHtml(/** @type {string} */ value) {
  /** @type {Record<string, string>} */
  const entities = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };
  return value.replace(/[&<>"']/g, (c) => entities[c] ?? c);
}

/**
 * A field's value as Go prints it: a missing map key or nil is empty (html/template), a string as is.
 * @param {MailData} data
 * @param {string[]} fieldPathParts
 */
function lookup(data, fieldPathParts) {
  /** @type {unknown} */
  let value = data;
  for (const part of fieldPathParts) {
    value = value && typeof value === 'object' ? /** @type {Record<string, unknown>} */ (value)[part] : undefined;
  }
  return value;
}

/** Go's truth: false, 0, nil, and empty strings, maps and slices are false. */
function truthy(/** @type {unknown} */ value) {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/**
 * Percent-encodes every byte but letters, digits and `-._~`, as html/template's urlEscaper does
 * for a value in a URL's query (text/template's html/url.go, urlProcessor with norm false).
 * @param {string} value
 */
function urlQueryEscape(value) {
  return Array.from(new TextEncoder().encode(value), (byte) => {
    const c = String.fromCharCode(byte);
    return /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).padStart(2, '0')}`;
  }).join('');
}

/**
 * Percent-encodes what may not stand in a URL (spaces, quotes, brackets `()<>`, bytes past ASCII), as
 * html/template's urlNormalizer does for a URL's start or path; and a value at the start of the
 * URL that is not http(s) or mailto becomes `#ZgotmplZ`, as its urlFilter does.
 * @param {string} value
 * @param {boolean} atStart
 */
function urlNormalize(value, atStart) {
  if (atStart && /^[^/?#]*:/.test(value) && !/^(https?|mailto):/i.test(value)) return '#ZgotmplZ';
  return Array.from(new TextEncoder().encode(value), (byte) => {
    const c = String.fromCharCode(byte);
    return /[A-Za-z0-9\-._~!#$&*+,/:;=?@[\]%]/.test(c) ? c : `%${byte.toString(16).padStart(2, '0')}`;
  }).join('');
}

/**
 * Where a value printed after `out` stands: inside an href attribute's URL (its start, its
 * path, or its query or fragment), or in plain HTML. html/template picks its escaper by the
 * same context (html/template/context.go, urlPart).
 * @param {string} out
 * @returns {'html' | 'url-start' | 'url-path' | 'url-query'}
 */
function contextAfter(out) {
  const open = /\bhref\s*=\s*"([^"]*)$/i.exec(out);
  if (!open) return 'html';
  const url = open[1] ?? '';
  if (url === '') return 'url-start';
  return /[?#]/.test(url) ? 'url-query' : 'url-path';
}

/**
 * A printed value escaped for its context, as html/template does: a URL part first, then the
 * attribute's HTML escaping.
 * @param {string} printed
 * @param {ReturnType<typeof contextAfter>} context
 */
function escapeFor(printed, context) {
  if (context === 'url-query') return escapeHtml(urlQueryEscape(printed));
  if (context === 'html') return escapeHtml(printed);
  return escapeHtml(urlNormalize(printed, context === 'url-start'));
}

/**
 * Renders parsed nodes with `data`, escaping values as html/template does in HTML and in an
 * href's URL (`escape` false for a subject, which GoTrue sends as a header, not HTML).
 * @param {Node[]} nodes
 * @param {MailData} data
 * @param {boolean} escape
 * @returns {string}
 */
export function renderNodes(nodes, data, escape = true) {
  let out = '';
  for (const node of nodes) {
    if (node.type === 'text') out += node.text;
    else if (node.type === 'field') {
      const value = lookup(data, node.path);
      const printed =
        value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
      out += escape ? escapeFor(printed, contextAfter(out)) : printed;
    } else {
      const branch = node.branches.find((b) => b.cond === null || truthy(lookup(data, b.cond)));
      if (branch) out += renderNodes(branch.body, data, escape);
    }
  }
  return out;
}

/**
 * The plain-text reading of a rendered HTML mail, for the stand-in's log and inbox: a link
 * becomes "its words: its address", blocks become lines, entities are decoded.
 * @param {string} html
 */
export function htmlToText(html) {
  const decode = (/** @type {string} */ s) =>
    s
      .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&nbsp;/g, ' ')
      .replace(/&amp;/g, '&');
  return decode(
    html
      .replace(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a\s*>/gi, (_, href, words) => `${words.trim()}: ${href}`)
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/(p|h[1-6]|div|li|tr)>/gi, '\n\n')
      .replace(/<[^>]+>/g, ''),
  )
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * The `[auth.email.template.*]` tables of a config.toml's text.
 * @param {string} toml
 * @returns {Record<string, { subject?: unknown, content_path?: unknown }>}
 */
export function configuredTemplates(toml) {
  const config = /** @type {any} */ (parseToml(toml));
  return config?.auth?.email?.template ?? {};
}

/**
 * Loads and checks every template config.toml names, and renders mails with them. A kind with
 * no template in config.toml is refused: the repo brands every mail it sends.
 * @param {{ configToml?: string, repoRoot?: string }} [options]
 */
export function loadMailTemplates({ configToml = readFileSync(CONFIG_TOML, 'utf8'), repoRoot = REPO_ROOT } = {}) {
  /** @type {Map<string, { subject: Node[], body: Node[] }>} */
  const templates = new Map();
  for (const [kind, table] of Object.entries(configuredTemplates(configToml))) {
    if (typeof table.subject !== 'string' || typeof table.content_path !== 'string')
      throw new TemplateError(`config.toml [auth.email.template.${kind}] needs subject and content_path`);
    const file = path.resolve(repoRoot, table.content_path);
    const k = /** @type {MailKind} */ (kind);
    templates.set(kind, {
      subject: checkTemplate(k, table.subject, `[auth.email.template.${kind}] subject`),
      body: checkTemplate(k, readFileSync(file, 'utf8'), table.content_path),
    });
  }
  return {
    /**
     * @param {MailKind} kind
     * @param {MailData} data the variables GoTrue passes this kind (TEMPLATE_VARIABLES)
     * @returns {RenderedMail}
     */
    render(kind, data) {
      const template = templates.get(kind);
      if (!template) throw new TemplateError(`config.toml has no [auth.email.template.${kind}]`);
      const html = renderNodes(template.body, data);
      return { subject: renderNodes(template.subject, data, false), html, text: htmlToText(html) };
    },
  };
}
