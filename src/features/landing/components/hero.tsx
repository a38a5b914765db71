import { landing } from '@/content/landing';
import { site } from '@/content/site';
import { PriceBlock } from './price-block';
import { SalesVideo } from './sales-video';

const { eyebrow, intro, benefits } = landing.hero;
const { cover } = site.ebook;

export function Hero() {
  return (
    <section aria-labelledby="hero-heading" className="from-navy-900 to-navy-800 text-cream bg-gradient-to-b">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-2 lg:gap-12 lg:py-16">
        <div>
          <p className="text-gold-300 text-sm font-semibold tracking-wider uppercase">{eyebrow}</p>
          <h1 id="hero-heading" className="text-gold-300 mt-2 font-serif text-5xl leading-tight font-bold sm:text-6xl">
            {site.productName}
          </h1>
          <p className="mt-3 font-serif text-2xl leading-snug sm:text-3xl">{site.tagline}</p>
          <p className="text-navy-50 mt-4 text-lg">{intro}</p>
          <ul className="mt-6 space-y-3">
            {benefits.map((benefit) => (
              <li key={benefit} className="flex items-center gap-3 text-lg font-semibold">
                <span
                  aria-hidden="true"
                  className="bg-gold-400 text-navy-900 flex size-7 shrink-0 items-center justify-center rounded-full"
                >
                  <svg viewBox="0 0 20 20" className="size-4" fill="currentColor">
                    <path d="M8 13.6 4.4 10l-1.4 1.4L8 16.4l9-9L15.6 6z" />
                  </svg>
                </span>
                {benefit}
              </li>
            ))}
          </ul>
        </div>

        <div className="flex flex-col items-center gap-6 lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <img
            src={cover.src}
            width={cover.width}
            height={cover.height}
            alt={cover.alt}
            fetchPriority="high"
            className="ring-gold-500/40 h-auto w-40 rounded-md shadow-2xl ring-1 sm:w-52"
          />
          <SalesVideo />
        </div>

        <PriceBlock />
      </div>
    </section>
  );
}
