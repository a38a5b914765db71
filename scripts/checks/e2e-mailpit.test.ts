import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  decodeEntities,
  mailFromMessage,
  mailpitQuery,
  messagesTo,
  confirmLink,
  mailCode,
  type MailpitMessage,
  type MailpitSummary,
} from '../../e2e/mailpit';

// e2e/inbox.ts on a `supabase start` stack reads Mailpit. These fixtures are Mailpit's answers
// as its source defines them (server/apiv1/messages.go MessagesSummary, internal/storage/
// structs.go MessageSummary and Message; Go's net/mail.Address), with the body GoTrue renders
// from supabase/templates/invite.html through html/template (`&` in the href becomes `&amp;`).
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/mailpit/${name}.json`, import.meta.url), 'utf8')) as unknown;
const search = fixture('search') as { messages: MailpitSummary[] };
const message = fixture('message') as MailpitMessage;

describe('Mailpit parsing for the e2e inbox', () => {
  it('searches by recipient in Mailpit syntax', () => {
    expect(mailpitQuery('buyer@example.com')).toBe('to:"buyer@example.com"');
  });

  it("keeps only the messages to exactly that address (Mailpit's to: matches a substring), newest first", () => {
    expect(messagesTo('buyer@example.com', search)).toEqual(['Vh3pXKZ7mJ4QeD8wYbN2sL', 'Ld7sE3vGq1HbXk9NwR5TcM']);
    // Whatever order they come in, the newest is first.
    const shuffled = { messages: [...search.messages].reverse() };
    expect(messagesTo('buyer@example.com', shuffled)).toEqual(['Vh3pXKZ7mJ4QeD8wYbN2sL', 'Ld7sE3vGq1HbXk9NwR5TcM']);
    expect(messagesTo('nobody@example.com', search)).toEqual([]);
    expect(messagesTo('buyer@example.com', { messages: null })).toEqual([]);
  });

  it("reads a message's subject, its link to the site's confirm page, decoded, and its code", () => {
    const mail = mailFromMessage(message);
    expect(mail.subject).toBe('Your files are ready');
    const link = new URL(mail.link);
    expect(`${link.origin}${link.pathname}`).toBe('http://127.0.0.1:4173/auth/confirm');
    expect(Object.fromEntries(link.searchParams)).toEqual({
      token_hash: '5e1a0c7b2f9d48e3a6b1c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4',
      type: 'invite',
      email: 'buyer@example.com',
    });
    expect(mail.code).toBe('482913');
  });

  it('decodes the character references html/template writes into attributes', () => {
    expect(decodeEntities('a&amp;b&#43;c&#39;d&#34;e&#x2F;f&lt;&gt;&quot;&apos;')).toBe('a&b+c\'d"e/f<>"\'');
    expect(decodeEntities('&unknown; &#xZZ; & plain')).toBe('&unknown; &#xZZ; & plain');
  });

  it('takes the first link to /auth/confirm, skipping others, and gives "" when there is none', () => {
    const html =
      "<a href='https://example.com/help'>Help</a> <a href = 'http://127.0.0.1:4173/auth/confirm?token_hash=t&amp;type=recovery&amp;email=a%40b.c'>Reset</a>";
    expect(confirmLink(html)).toBe('http://127.0.0.1:4173/auth/confirm?token_hash=t&type=recovery&email=a%40b.c');
    expect(confirmLink('<p>Your password was changed</p>')).toBe('');
    expect(mailCode('<p>Type <strong>012345</strong></p>')).toBe('012345');
    expect(mailCode('<p>No code</p>')).toBe('');
  });
});
