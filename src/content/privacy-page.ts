/**
 * The text of /privacy, one section per entry, laid out as written. The owner edits
 * it here; its title and description are in `privacy.ts`.
 */
export const privacyPage = {
  intro: `Writing a book takes courage, and trusting a website with your details should not. Here is, plainly, what we keep about you, why we keep it and how you can take it with you or have it erased.`,
  updated: 'Last updated 28 November 2026',
  sections: [
    {
      heading: 'What we keep',
      items: [
        'Your e-mail address and password (stored only as a one-way hash we cannot read), so you can sign in.',
        'Your display name and profile picture, if you choose to add them.',
        'Your tier (ebook or bundle) and where it came from: a purchase, or access our team gave you.',
        'Your purchases: what you bought, the order number, the amount, the e-mail used at checkout, and any refund.',
        'When you signed up and when you last signed in.',
        'Each paid file you download: which file, when, and the internet address and browser it was downloaded from, so that sharing can be noticed. Every PDF and EPUB you download carries your e-mail address.',
        'Each audio or video file you play, once a day per file, logged the same way; where you stopped in it and whether you finished it, so you can carry on from any device; and the playback speed you chose.',
        'If your bundle includes community access, live circles or Q&A calls: when your access started and ends, any change our team made to it and why, and the reminders we e-mail you (access ending, a session tomorrow or within the hour, a session moved or cancelled).',
      ],
    },
    {
      heading: 'Why we keep it',
      paragraphs: [
        "Only to give you what you paid for: to let you sign in, unlock the resources of your tier, and help you when you write to us. We do not sell your details, we do not share them with advertisers, and this site carries no advertising and no one else's tracking scripts.",
      ],
    },
    {
      heading: 'How long we keep it',
      paragraphs: [
        'For as long as you have an account. When your account is erased, your sign-in details, profile, picture, tier, download and play history, where you stopped in each recording, and any access our team gave you are removed at once.',
        'Your purchases stay in our books, as the law requires for sales records, with the link to your account removed. If you open a new account later with the same e-mail, those purchases are not joined to it by themselves; write to us and we will restore your access.',
      ],
    },
    {
      heading: 'How we count visits',
      paragraphs: [
        'To learn which pages and campaigns bring readers, we count visits ourselves, with nothing stored in your browser: no cookie, no local storage, nothing that follows you from one site or one day to the next.',
      ],
      items: [
        'What is counted: each view of our home, bundles, thank-you, privacy and sign-in pages; each click on a checkout button; each play of the sales video.',
        'What a count keeps: the page, the day, the name of the website that sent you (such as youtube.com, never the page), the campaign named in the link you followed (its utm_source, utm_medium and utm_campaign), and whether you use a phone, a tablet or a computer.',
        "To count visitors and not only page views, our server scrambles your internet address and browser name together with a random value made new each day, and keeps only the result. The day's random value is deleted when the day ends, so nobody, us included, can turn the result back into your address or join one day's visit to the next. Your internet address and browser name themselves are never stored.",
        "The counts themselves are kept for 30 days; after that only each day's totals remain. They hold nothing that identifies you, so they are not part of your data download.",
        'When you buy, the checkout link carries the campaign that brought you, never anything about you, so we can see which campaigns lead to sales.',
        'Visitors without JavaScript, search engines and automated browsers are not counted.',
      ],
    },
    {
      heading: 'Who processes it for us',
      items: [
        'Supabase, which hosts our database, sign-in and file storage.',
        'The company that hosts this website, which serves its pages.',
        'The checkout you buy through (our shop or our payment provider), which handles your payment and sends us the order. We never see your card details.',
      ],
    },
    {
      heading: 'A copy of your data',
      paragraphs: [
        'Signed in, open the account menu (your picture at the top right) and choose Download my data. You get one file with everything above that belongs to you.',
      ],
    },
    {
      heading: 'Erasing your account',
      paragraphs: [
        'Signed in, open the account menu and choose Delete my account; you confirm with your password. Or write to us from the address on your account and we will erase it for you.',
      ],
    },
  ],
  contact: 'Questions about your privacy? Write to us at',
} as const;
