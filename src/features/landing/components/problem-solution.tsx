import { landing } from '@/content/landing';

const { heading, intro, fears, costsHeading, costs, solutionHeading, solutionIntro, gets } = landing.problem;

export function ProblemSolution() {
  return (
    <>
      <section aria-labelledby="problem-heading" className="bg-cream">
        <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
          <h2 id="problem-heading" className="text-center font-serif text-3xl font-bold sm:text-4xl">
            {heading}
          </h2>
          <p className="text-navy-800 mx-auto mt-3 max-w-2xl text-center text-lg">{intro}</p>
          <ul className="mt-8 grid gap-4 md:grid-cols-2 lg:grid-cols-3">
            {fears.map((fear) => (
              <li
                key={fear}
                className="border-gold-500 rounded-xl border-l-4 bg-white p-5 font-serif text-lg italic shadow-sm"
              >
                {fear}
              </li>
            ))}
          </ul>

          <div className="bg-navy-900 text-cream mt-12 rounded-2xl p-6 sm:p-8">
            <h3 className="text-gold-300 font-serif text-2xl font-bold">{costsHeading}</h3>
            <ul className="mt-4 space-y-3">
              {costs.map((cost) => (
                <li key={cost} className="flex gap-3">
                  <span aria-hidden="true" className="bg-gold-400 mt-2 size-2 shrink-0 rounded-full" />
                  {cost}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </section>

      <section aria-labelledby="solution-heading" className="bg-white">
        <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
          <h2 id="solution-heading" className="text-center font-serif text-3xl font-bold sm:text-4xl">
            {solutionHeading}
          </h2>
          <p className="text-navy-800 mx-auto mt-3 max-w-2xl text-center text-lg">{solutionIntro}</p>
          <ul className="mt-8 grid gap-5 sm:grid-cols-2">
            {gets.map((item) => (
              <li key={item.title} className="bg-cream ring-navy-100 rounded-xl p-6 ring-1">
                <h3 className="font-serif text-xl font-bold">{item.title}</h3>
                <p className="text-navy-800 mt-2">{item.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </>
  );
}
