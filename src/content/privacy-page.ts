/**
 * The text of /privacy, one section per entry, laid out as written. The owner edits
 * it here; its title and description are in `privacy.ts`.
 */
export const privacyPage = {
  intro: `Writing a book takes courage, and trusting a website with your details should not. Here is, plainly, what we keep about you, why we keep it and how you can take it with you or have it erased.`,
  updated: 'Last updated 26 November 2026',
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
      ],
    },
    {
      heading: 'Why we keep it',
      paragraphs: [
        'Only to give you what you paid for: to let you sign in, unlock the resources of your tier, and help you when you write to us. We do not sell your details, we do not share them with advertisers, and this site carries no advertising or tracking scripts.',
      ],
    },
    {
      heading: 'How long we keep it',
      paragraphs: [
        'For as long as you have an account. When your account is erased, your sign-in details, profile, picture, tier, download history and any access our team gave you are removed at once.',
        'Your purchases stay in our books, as the law requires for sales records, with the link to your account removed. If you open a new account later with the same e-mail, those purchases are not joined to it by themselves; write to us and we will restore your access.',
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
