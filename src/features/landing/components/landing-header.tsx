import type { ReactNode } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { landing } from '@/content/landing';
import { site } from '@/content/site';
import { PurchaseLink } from '@/features/purchase';

/**
 * Sticky header with the one gold purchase button. The app passes its account corner in
 * (`account`), inline rather than floating over the header, so on a 360 px phone the two
 * share the row instead of the Sign In button covering the purchase button.
 */
export function LandingHeader({ account }: { account: ReactNode }) {
  return (
    <header className="border-gold-500/30 bg-navy-900/95 sticky top-0 z-40 border-b backdrop-blur">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-3 py-2 sm:px-6">
        <p className="text-gold-300 hidden font-serif text-xl font-bold sm:block">{site.productName}</p>
        <PurchaseLink className={buttonClasses('gold', 'sm', 'min-w-0 flex-1 leading-tight sm:flex-none')}>
          {landing.header.purchase}
        </PurchaseLink>
        {account}
      </div>
    </header>
  );
}
