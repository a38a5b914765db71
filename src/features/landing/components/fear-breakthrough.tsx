import { buttonClasses } from '@/components/ui/button';
import { landing } from '@/content/landing';
import { PurchaseLink } from '@/features/purchase';

const { heading, intro, fearHeading, breakthroughHeading, pairs, cta } = landing.comparison;

/** A table, because each fear is read against the breakthrough beside it. */
export function FearBreakthrough() {
  return (
    <section aria-labelledby="comparison-heading" className="bg-navy-900 text-cream">
      <div className="mx-auto max-w-4xl px-4 py-14 sm:px-6">
        <h2 id="comparison-heading" className="text-center font-serif text-3xl font-bold sm:text-4xl">
          {heading}
        </h2>
        <p className="text-navy-50 mx-auto mt-3 max-w-2xl text-center text-lg">{intro}</p>
        <table className="mt-8 w-full table-fixed border-separate border-spacing-x-2 border-spacing-y-2 text-left text-sm sm:border-spacing-x-4 sm:text-base">
          <thead>
            <tr>
              <th scope="col" className="bg-navy-700 rounded-t-lg px-3 py-3 font-serif text-lg">
                {fearHeading}
              </th>
              <th scope="col" className="bg-gold-400 text-navy-900 rounded-t-lg px-3 py-3 font-serif text-lg">
                {breakthroughHeading}
              </th>
            </tr>
          </thead>
          <tbody>
            {pairs.map((pair) => (
              <tr key={pair.fear}>
                <td className="bg-navy-800 text-navy-50 rounded-lg px-3 py-3 align-top">{pair.fear}</td>
                <td className="bg-cream text-navy-900 rounded-lg px-3 py-3 align-top font-semibold">
                  {pair.breakthrough}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="mt-8 text-center">
          <PurchaseLink className={buttonClasses('gold', 'lg')}>{cta}</PurchaseLink>
        </div>
      </div>
    </section>
  );
}
