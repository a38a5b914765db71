// The auth e-mails' templates (supabase/templates/, subjects in supabase/config.toml): each parses
// as a Go template, reads only variables GoTrue passes that kind of mail
// (internal/mailer/templatemailer/templatemailer.go), and renders to a mail that names the
// product and carries its link; and the stand-in's inbox gets exactly that rendering.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REPO_ROOT,
  TemplateError,
  checkTemplate,
  loadMailTemplates,
  parseGoTemplate,
  renderNodes,
  type MailKind,
} from '../mail-templates.mjs';
import { SITE_URL } from '../auth/redirects.mjs';
import { ANON_KEY } from '../keys.mjs';
import { anonClient, serviceClient, startStandIn, uniqueEmail, type InboxMail, type StandIn } from './helpers';

const configText = readFileSync(path.join(REPO_ROOT, 'supabase', 'config.toml'), 'utf8');
const templates = (
  parse(configText) as { auth: { email: { template: Record<string, { subject: string; content_path: string }> } } }
).auth.email.template;

const sample = {
  SiteURL: 'https://app.yesyoucanbook.com',
  ConfirmationURL: 'https://ref.supabase.co/auth/v1/verify?token=abc&type=invite&redirect_to=https%3A%2F%2Fapp',
  Email: 'reader@example.com',
  NewEmail: 'new@example.com',
  Token: '123456',
  TokenHash: 'abc',
  SendingTo: 'reader@example.com',
  Data: {},
  RedirectTo: 'https://app.yesyoucanbook.com/auth/set-password',
};

describe('the Go-template checker', () => {
  it('renders fields escaped as html/template does, if/else and trim markers, and skips comments', () => {
    const nodes = parseGoTemplate('{{/* note */}}<a href="{{ .A }}">{{- if .B -}} yes {{- else -}} no {{ end -}} </a>');
    expect(renderNodes(nodes, { A: 'x?a=1&b="2"', B: '' })).toBe('<a href="x?a=1&amp;b=%222%22">no </a>');
    expect(renderNodes(nodes, { A: '<i>', B: 'set' })).toBe('<a href="%3ci%3e">yes</a>');
    expect(renderNodes(parseGoTemplate('<p>{{ .A }}</p>'), { A: '<i>' })).toBe('<p>&lt;i&gt;</p>');
  });

  it("escapes a value by its place in an href, as html/template's URL escapers do", () => {
    const nodes = parseGoTemplate('<a href="{{ .Site }}/confirm?token_hash={{ .Hash }}&amp;email={{ .Email }}">');
    expect(renderNodes(nodes, { Site: 'https://app.example', Hash: 'a1', Email: 'a+b c@x.com' })).toBe(
      '<a href="https://app.example/confirm?token_hash=a1&amp;email=a%2bb%20c%40x.com">',
    );
    expect(renderNodes(nodes, { Site: 'javascript:alert(1)', Hash: '', Email: '' })).toMatch(/^<a href="#ZgotmplZ/);
  });

  it.each([
    ['{{ .Email }', /never closed/],
    ['}} text', /without an opening/],
    ['{{ if .Email }}open', /never ended/],
    ['{{ end }}', /"end" without "if"/],
    ['{{ else }}', /"else" without "if"/],
    ['{{ if .Email }}a{{ else }}b{{ else }}c{{ end }}', /second "else"/],
    ['{{ }}', /empty action/],
    ['{{ .Email | printf "%s" }}', /not a field/],
    ['{{ range .Data }}{{ end }}', /not read by this checker/],
  ])('refuses %s', (source, message) => {
    expect(() => parseGoTemplate(source)).toThrow(TemplateError);
    expect(() => parseGoTemplate(source)).toThrow(message);
  });

  it('refuses a variable GoTrue does not pass that kind of mail, and a field of a string', () => {
    expect(() => checkTemplate('recovery', '{{ .NewEmail }}')).toThrow(
      /not a variable GoTrue passes the recovery mail/,
    );
    expect(() => checkTemplate('invite', '<a href="{{ .ConfirmationUrl }}">')).toThrow(/ConfirmationUrl/);
    expect(() => checkTemplate('reauthentication', '{{ .ConfirmationURL }}')).toThrow(/reauthentication/);
    expect(() => checkTemplate('invite', '{{ .Email.Domain }}')).toThrow(/has no fields/);
    expect(() => checkTemplate('email_change', '{{ .NewEmail }} {{ .Data.name }}')).not.toThrow();
  });
});

/** The verify type each mail's link names (GoTrue's verifyTokenHash reads it). */
const linkTypes: Record<string, string> = {
  invite: 'invite',
  confirmation: 'signup',
  recovery: 'recovery',
  email_change: 'email_change',
};

describe('supabase/templates/', () => {
  it.each(Object.keys(templates))(
    '%s: subject and body parse, use only its variables, and render branded with the link',
    (kind) => {
      const { subject, content_path } = templates[kind]!;
      const body = readFileSync(path.join(REPO_ROOT, content_path), 'utf8');
      checkTemplate(kind as MailKind, subject);
      const html = renderNodes(checkTemplate(kind as MailKind, body, content_path), sample);
      expect(`${subject} ${html}`).toContain('Yes, You Can!');
      // A page of the site that verifies only when the person presses its button, never
      // GoTrue's /verify, which a mail scanner's GET would spend; and the 6-digit code.
      expect(html).toContain(
        `href="${sample.SiteURL}/auth/confirm?token_hash=${sample.TokenHash}&amp;type=${linkTypes[kind]}&amp;email=reader%40example.com`,
      );
      expect(html).not.toContain(sample.ConfirmationURL.replace(/&/g, '&amp;'));
      expect(html).toContain(`<strong>${sample.Token}</strong>`);
      // Says what to do next: a link to follow, and what to do when it has expired or was not asked for.
      expect(html).toMatch(/<a\s+href=[^>]+>[^<]+<\/a\s*>/);
      expect(html).toMatch(/expired|did not/);
      expect(html).not.toContain('{{');
    },
  );

  it('brands every mail GoTrue would send this site: invitation, confirmation, recovery, e-mail change', () => {
    expect(Object.keys(templates).sort()).toEqual(['confirmation', 'email_change', 'invite', 'recovery']);
  });

  it('refuses to load a config whose template uses an unknown variable', () => {
    const broken = configText.replace(
      'subject = "Reset your Yes, You Can! password"',
      'subject = "Reset the password of {{ .Name }}"',
    );
    expect(() => loadMailTemplates({ configToml: broken })).toThrow(/\.Name/);
  });
});

describe('the stand-in sends the same templates', () => {
  let server: StandIn;
  beforeAll(async () => {
    server = await startStandIn({ seedSampleFiles: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function inbox(email: string): Promise<InboxMail[]> {
    const res = await fetch(`${server.url}/inbox?email=${encodeURIComponent(email)}`, {
      headers: { apikey: ANON_KEY },
    });
    return ((await res.json()) as { messages: InboxMail[] }).messages;
  }

  it('an invitation and a recovery mail carry the configured subjects and the rendered bodies', async () => {
    const email = uniqueEmail('templated');
    const admin = serviceClient(server.url);
    expect((await admin.auth.admin.inviteUserByEmail(email)).error).toBeNull();
    const [invitation] = await inbox(email);
    const tokenHash = new URL(invitation!.link).searchParams.get('token')!;
    const rendered = loadMailTemplates().render('invite', {
      ...sample,
      SiteURL: SITE_URL,
      ConfirmationURL: invitation!.link,
      Email: email,
      Token: invitation!.otp,
      TokenHash: tokenHash,
    });
    expect(invitation!.subject).toBe(templates.invite!.subject);
    expect(invitation!.body).toBe(rendered.text);
    const page = `${SITE_URL}/auth/confirm?token_hash=${tokenHash}&type=invite&email=${encodeURIComponent(email)}`;
    expect(invitation!.body).toContain(`Choose my password and open my files: ${page}`);
    expect(invitation!.otp).toMatch(/^\d{6}$/);
    expect(invitation!.body).toContain(invitation!.otp);

    expect((await anonClient(server.url).auth.resetPasswordForEmail(email)).error).toBeNull();
    const [recovery] = await inbox(email);
    expect(recovery!.subject).toBe(templates.recovery!.subject);
    expect(recovery!.body).toMatch(/Choose a new password: \S+\/auth\/confirm\?token_hash=[0-9a-f]{56}&type=recovery/);
    expect(recovery!.body).toContain(email);
  });

  it("a link's token hash is GoTrue's: the SHA-224 of the address and the code", async () => {
    const email = uniqueEmail('hashed');
    expect((await serviceClient(server.url).auth.admin.inviteUserByEmail(email)).error).toBeNull();
    const [mail] = await inbox(email);
    const tokenHash = new URL(mail!.link).searchParams.get('token');
    expect(tokenHash).toBe(createHash('sha224').update(`${email}${mail!.otp}`).digest('hex'));
  });
});
