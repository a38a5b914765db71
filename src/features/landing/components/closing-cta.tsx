import { buttonClasses } from '@/components/ui/button';
import { landing } from '@/content/landing';
import { site } from '@/content/site';

const { heading, text, scripture, cta } = landing.closing;

export function ClosingCta() {
  return (
    <section aria-labelledby="closing-heading" className="bg-cream">
      <div className="mx-auto max-w-3xl px-4 py-16 text-center sm:px-6">
        <h2 id="closing-heading" className="font-serif text-3xl font-bold sm:text-4xl">
          {heading}
        </h2>
        <figure className="border-gold-500 mx-auto mt-8 max-w-2xl rounded-2xl border-2 bg-white px-6 py-8 shadow-sm">
          <blockquote className="font-serif text-2xl leading-snug italic sm:text-3xl">
            <p>“{scripture.text}”</p>
          </blockquote>
          <figcaption className="text-navy-700 mt-4 font-semibold">
            <cite className="not-italic">{scripture.reference}</cite>
          </figcaption>
        </figure>
        <p className="text-navy-800 mx-auto mt-8 max-w-2xl text-lg">{text}</p>
        {/* The company site, in this window: it is the next step, not a side trip. */}
        <a href={site.urls.company} className={buttonClasses('primary', 'lg', 'mt-8')}>
          {cta}
        </a>
      </div>
    </section>
  );
}
