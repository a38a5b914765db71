import { describe, expect, it } from 'vitest';
import { memberMailContent, runMemberMail } from './member-mail.ts';
import { WebhookError } from './types.ts';

const site = 'https://yesyoucanbook.com';

describe('memberMailContent', () => {
  it('writes the access reminder in the owner’s zone, with the way to continue', () => {
    const mail = memberMailContent(
      {
        kind: 'access_ends',
        payload: {
          label: 'Community access',
          ends_at: '2027-03-07T17:00:00+00:00',
          days: 7,
          time_zone: 'America/New_York',
        },
      },
      site,
    );
    expect(mail.subject).toBe('Your community access ends in 7 days');
    expect(mail.text).toContain('Your community access lasts until Sunday, 7 March 2027 at 12:00 pm GMT-5.');
    expect(mail.text).toContain(`${site}/bundles`);
  });

  it('names the session, its time across a change of the clocks, and where the join link appears', () => {
    const soon = memberMailContent(
      {
        kind: 'session_soon',
        payload: {
          title: 'Circle <one>',
          label: 'Group coaching circle',
          starts_at: '2027-03-28T18:00:00Z',
          minutes: 120,
          hours: 1,
          time_zone: 'Europe/London',
        },
      },
      site,
    );
    expect(soon.subject).toBe('Circle <one> starts in 1 hour');
    expect(soon.text).toContain('starts Sunday, 28 March 2027 at 7:00 pm BST and lasts 120 minutes');
    expect(soon.html).toContain('Circle &lt;one&gt;');
    expect(soon.html).not.toContain('<one>');

    const moved = memberMailContent(
      {
        kind: 'session_moved',
        payload: {
          title: 'Q&A',
          starts_at: '2027-03-28T18:00:00Z',
          old_starts_at: '2027-03-21T18:00:00Z',
          time_zone: 'Europe/London',
        },
      },
      site,
    );
    expect(moved.subject).toBe('New time: Q&A');
    expect(moved.text).toContain('from Sunday, 21 March 2027 at 6:00 pm GMT to Sunday, 28 March 2027 at 7:00 pm BST');
  });
});

describe('runMemberMail', () => {
  const options = {
    rpc: () => Promise.reject(new Error('not reached')),
    mailApi: { url: 'http://mail.invalid', key: 'k', from: 'Team <team@example.com>' },
    siteUrl: site,
    log: () => {},
    scheduleKey: 'service-role-key',
  };

  it('refuses a caller without the service-role key', async () => {
    const req = new Request('http://x/purchase-webhook/member-mail', {
      method: 'POST',
      headers: { Authorization: 'Bearer nope' },
    });
    await expect(runMemberMail(options, req)).rejects.toEqual(
      new WebhookError(401, 'the scheduled run needs the service-role key'),
    );
  });

  it('is not there without a schedule key', async () => {
    const req = new Request('http://x/purchase-webhook/member-mail', { method: 'POST' });
    await expect(runMemberMail({ ...options, scheduleKey: undefined }, req)).rejects.toMatchObject({ status: 404 });
  });
});
