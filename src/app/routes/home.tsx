import { AccountCorner } from '@/app/account-corner';
import { ClosingCta } from '@/features/landing/components/closing-cta';
import { FearBreakthrough } from '@/features/landing/components/fear-breakthrough';
import { Hero } from '@/features/landing/components/hero';
import { LandingHeader } from '@/features/landing/components/landing-header';
import { ProblemSolution } from '@/features/landing/components/problem-solution';
import { SiteFooter } from '@/features/landing/components/site-footer';

/** The landing page: a document (prerendered, no React in the browser). */
export function Component() {
  return (
    <>
      <LandingHeader account={<AccountCorner inline />} />
      <main>
        <Hero />
        <ProblemSolution />
        <FearBreakthrough />
        <ClosingCta />
      </main>
      <SiteFooter />
    </>
  );
}
