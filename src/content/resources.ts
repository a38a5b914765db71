import folders from './resource-folders.json' with { type: 'json' };
import { isTier, type Tier } from './tiers';

/**
 * Each card's storage folder (`{tier}/{slug}`) and the files the local stand-in seeds there:
 * resource-folders.json, the one definition, also read by packages/supabase-stand-in/sample-files.mjs
 * (plain Node, which cannot import TypeScript) and so by scripts/dev/seed-sample-files.mjs.
 */
function folderOf(slug: string): { tier: Tier; sampleFiles: readonly string[] } {
  const folder = folders.find((candidate) => candidate.slug === slug);
  if (!folder || !isTier(folder.tier)) throw new Error(`resource-folders.json has no valid folder for ${slug}`);
  return { tier: folder.tier, sampleFiles: folder.sampleFiles };
}

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
  /**
   * File extensions staff may upload to this card (a browser hint, also checked on pick). Audio
   * and video (.mp4, .m4a, .mp3) play in the member's page; a .vtt is the captions of the video
   * of the same name.
   */
  accept: readonly string[];
  sampleFiles: readonly string[];
};

export const resourceCards: readonly ResourceCard[] = [
  {
    slug: 'ebook',
    title: 'Yes, You Can! eBook',
    description: 'The complete book in ePub and PDF, plus a printable quick-start guide to your first week of writing.',
    colour: 'from-navy-700 to-navy-900',
    accept: ['.pdf', '.epub', '.mobi'],
    ...folderOf('ebook'),
  },
  {
    slug: 'worksheets',
    title: 'Worksheets & Checklists',
    description: 'Plan chapters, track your word count and keep every writing day on course with printable worksheets.',
    colour: 'from-emerald-600 to-emerald-800',
    accept: ['.pdf', '.epub', '.mobi'],
    ...folderOf('worksheets'),
  },
  {
    slug: 'scripture-audio',
    title: 'Daily Scripture Audio Library',
    description:
      'A listening guide and six guided sessions of scripture and encouragement to start each writing day in peace.',
    colour: 'from-sky-600 to-sky-800',
    accept: ['.mp3', '.m4a', '.mp4', '.vtt', '.pdf'],
    ...folderOf('scripture-audio'),
  },
  {
    slug: 'affirmation-cards',
    title: 'Affirmation Cards',
    description: 'Fifteen printable scripture-based affirmation cards to keep beside your desk when doubt creeps in.',
    colour: 'from-rose-500 to-rose-700',
    accept: ['.pdf', '.epub', '.mobi'],
    ...folderOf('affirmation-cards'),
  },
  {
    slug: 'masterclass',
    title: 'Video Masterclass & Templates',
    description:
      'The Accelerated Success masterclass, templates and tools library for drafting and revising with confidence.',
    colour: 'from-violet-600 to-violet-800',
    accept: ['.mp4', '.m4a', '.mp3', '.vtt', '.pdf', '.epub', '.mobi'],
    ...folderOf('masterclass'),
  },
  {
    slug: 'publishing-roadmap',
    title: '90-Day Publishing Roadmap',
    description:
      'The Complete Transformation roadmap, manuscript support and launch-plan materials for taking your book to readers.',
    colour: 'from-gold-500 to-gold-600',
    accept: ['.mp4', '.m4a', '.mp3', '.vtt', '.pdf', '.epub', '.mobi'],
    ...folderOf('publishing-roadmap'),
  },
];

/** The storage folder of a card: `{tier}/{slug}`. */
export function resourceFolder(card: Pick<ResourceCard, 'tier' | 'slug'>): string {
  return `${card.tier}/${card.slug}`;
}

export function findResourceCard(slug: string): ResourceCard | undefined {
  return resourceCards.find((card) => card.slug === slug);
}
