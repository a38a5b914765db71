import type { Tier } from './tiers';

/**
 * The six resource cards on /resources. Their files are not static files of the site: each
 * card's files live in the private `resources` storage bucket under `{tier}/{slug}/`, and
 * the page lists that folder and downloads through short-lived signed URLs. `sampleFiles`
 * names what the local stand-in seeds there (the spec's file counts), so a fresh clone has
 * something real to download.
 */
export type ResourceCard = {
  slug: string;
  title: string;
  description: string;
  tier: Tier;
  /** Tailwind gradient classes for the card's header band. */
  colour: string;
  /** File extensions staff may upload to this card (a browser hint, also checked on pick). */
  accept: readonly string[];
  sampleFiles: readonly string[];
};

export const resourceCards: readonly ResourceCard[] = [
  {
    slug: 'ebook',
    title: 'Yes, You Can! eBook',
    description: 'The complete book in ePub and PDF, plus a printable quick-start guide to your first week of writing.',
    tier: 'ebook',
    colour: 'from-navy-700 to-navy-900',
    accept: ['.pdf', '.epub', '.mobi'],
    sampleFiles: ['yes-you-can.epub', 'yes-you-can.pdf', 'quick-start-guide.pdf'],
  },
  {
    slug: 'worksheets',
    title: 'Worksheets & Checklists',
    description: 'Plan chapters, track your word count and keep every writing day on course with printable worksheets.',
    tier: 'foundation',
    colour: 'from-emerald-600 to-emerald-800',
    accept: ['.pdf', '.epub', '.mobi'],
    sampleFiles: ['book-planning-worksheet.pdf', 'daily-writing-checklist.pdf', 'chapter-outline-template.pdf'],
  },
  {
    slug: 'scripture-audio',
    title: 'Daily Scripture Audio Library',
    description:
      'A listening guide and six guided sessions of scripture and encouragement to start each writing day in peace.',
    tier: 'foundation',
    colour: 'from-sky-600 to-sky-800',
    accept: ['.mp3', '.pdf'],
    sampleFiles: [
      'listening-guide.pdf',
      'session-1-called-to-write.mp3',
      'session-2-fear-not.mp3',
      'session-3-the-inner-critic.mp3',
      'session-4-perfect-is-not-required.mp3',
      'session-5-daily-faithfulness.mp3',
      'session-6-finishing-well.mp3',
    ],
  },
  {
    slug: 'affirmation-cards',
    title: 'Affirmation Cards',
    description: 'Fifteen printable scripture-based affirmation cards to keep beside your desk when doubt creeps in.',
    tier: 'foundation',
    colour: 'from-rose-500 to-rose-700',
    accept: ['.pdf', '.epub', '.mobi'],
    sampleFiles: ['affirmation-cards.pdf'],
  },
  {
    slug: 'masterclass',
    title: 'Video Masterclass & Templates',
    description:
      'The Accelerated Success masterclass, templates and tools library for drafting and revising with confidence.',
    tier: 'accelerated',
    colour: 'from-violet-600 to-violet-800',
    accept: ['.pdf', '.epub', '.mobi'],
    sampleFiles: [],
  },
  {
    slug: 'publishing-roadmap',
    title: '90-Day Publishing Roadmap',
    description:
      'The Complete Transformation roadmap, manuscript support and launch-plan materials for taking your book to readers.',
    tier: 'complete',
    colour: 'from-gold-500 to-gold-600',
    accept: ['.pdf', '.epub', '.mobi'],
    sampleFiles: [],
  },
];

/** The storage folder of a card: `{tier}/{slug}`. */
export function resourceFolder(card: Pick<ResourceCard, 'tier' | 'slug'>): string {
  return `${card.tier}/${card.slug}`;
}

export function findResourceCard(slug: string): ResourceCard | undefined {
  return resourceCards.find((card) => card.slug === slug);
}
