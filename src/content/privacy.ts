import { site } from './site';

/**
 * The privacy page's name, description and the links to it: small, because the
 * router, the footer and the sign-up form load it on every page. The page's own text is in
 * `privacy-page.ts`, loaded only with /privacy. Keep both true to what the site does:
 * docs/database.md says what each table holds, supabase/functions/account what an export and
 * an erasure do.
 */
export const privacy = {
  title: 'Your Privacy',
  description: `What ${site.productName} keeps about you, why and for how long, who processes it, and how to get a copy or have it erased.`,
  /** Under the sign-up form: the sentence, then the link's words. */
  signUpNote: { text: 'What we keep about you, and how to take it or have it erased:', link: 'Your Privacy' },
  /** The footer's link. */
  footerLink: 'Your Privacy',
  backHome: 'Back to Home',
} as const;
