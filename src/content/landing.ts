import { site } from './site';

const { daysToFinish, minutesToStart } = site.ebook;

/**
 * The landing page's words, so the owner can edit copy without touching components.
 * Prices, URLs and the product name are not written here: components take them from
 * `site.ts` (the content tests check no dollar amount slips in).
 */
export const landing = {
  header: {
    purchase: 'Purchase Your Yes, You Can! ebook Today!',
  },
  hero: {
    eyebrow: 'For first-time Christian writers',
    intro:
      'You have carried this book in your heart for years. God did not give you that story to leave it in a drawer. This practical, faith-filled guide walks you from fear to finished manuscript, one encouraging day at a time.',
    benefits: [`Finish Your Book in ${daysToFinish} Days`, 'Silence Your Inner Critic', 'Overcome Perfectionism'],
    video: {
      play: 'Play video',
      caption: 'Why your book still matters',
      iframeTitle: 'Yes, You Can! sales video',
      loading: 'Loading the video…',
    },
  },
  price: {
    heading: 'Start Your Book Today',
    label: 'limited-time introductory price',
    notes: ['Instant Digital Access', 'No Shipping', `Start Reading in ${minutesToStart} Minutes`],
    buy: 'Get Your Copy Today',
    offers: 'View Special Offers',
  },
  problem: {
    heading: 'Does This Sound Familiar?',
    intro:
      'Almost every first-time writer we coach has said at least one of these out loud. You are not alone, and you are not disqualified.',
    fears: [
      '“Who am I to write a book? I’m not a real writer.”',
      '“What if people read it and think it’s not good enough?”',
      '“I start strong, then I stall, and the draft sits untouched for months.”',
      '“I keep rewriting the first chapter because it never feels perfect.”',
      '“I don’t have the time, the training or the connections.”',
    ],
    costsHeading: 'What Waiting Is Costing You',
    costs: [
      'Another year passes and the story God placed on your heart is still unwritten.',
      'The readers your words could comfort, teach or set free never get to hear them.',
      'Every “someday” makes the inner critic louder and your confidence quieter.',
      'The regret of the book you never finished weighs more than the work of finishing it.',
    ],
    solutionHeading: 'What You Get Inside Yes, You Can!',
    solutionIntro:
      'A clear, gentle, proven path for finishing what you started, with scripture and encouragement on every page.',
    gets: [
      {
        title: `A ${daysToFinish}-day writing plan`,
        text: 'Bite-sized daily steps that take you from blank page to completed first draft, even with a busy life.',
      },
      {
        title: 'Tools to quiet the inner critic',
        text: 'Recognise the lies fear tells you and answer them with truth, so you can keep writing on the hard days.',
      },
      {
        title: 'Freedom from perfectionism',
        text: 'Learn to write a messy first draft on purpose and revise later, the way published authors really work.',
      },
      {
        title: 'Faith for the journey',
        text: 'Scripture, prayers and reflections that remind you who called you to write, and that He is faithful to finish it.',
      },
    ],
  },
  comparison: {
    heading: 'From Fear to Breakthrough',
    intro: 'The same writer, the same story. The difference is a plan and the courage to follow it.',
    fearHeading: 'Living with fear',
    breakthroughHeading: 'Living your breakthrough',
    /** Each fear sits beside the breakthrough that answers it. */
    pairs: [
      {
        fear: 'Waiting to feel ready before you write',
        breakthrough: 'Writing today, ready or not, and growing as you go',
      },
      {
        fear: 'Rewriting chapter one again and again',
        breakthrough: 'Finishing a full first draft, then making it shine',
      },
      {
        fear: 'Letting the inner critic have the last word',
        breakthrough: 'Answering doubt with truth and keeping your pen moving',
      },
      {
        fear: 'Writing alone, in secret, when you find the time',
        breakthrough: `A daily rhythm you can keep for ${daysToFinish} days`,
      },
      {
        fear: 'A story that stays in your heart',
        breakthrough: 'A finished book in your hands, ready to bless readers',
      },
    ],
    cta: 'Breakthrough Starts Here',
  },
  closing: {
    heading: 'Your Story Is Worth Finishing',
    text: 'The One who called you to write will give you the strength to finish. Take the first step today and let this be the year you hold your finished book in your hands.',
    scripture: {
      text: 'I can do all things through Christ which strengtheneth me.',
      reference: 'Philippians 4:13 (KJV)',
    },
    cta: 'Get Yes, You Can Now',
  },
  footer: {
    tagline: 'Helping first-time Christian writers overcome fear and finish the book God placed on their hearts.',
    quickLinks: 'Quick links',
    specialOffers: 'Special Offers',
    shop: 'Visit Our Shop',
    bundles: 'Bundles',
    resources: 'Subscriber Resources',
    contact: 'Questions? Write to us at',
  },
} as const;
