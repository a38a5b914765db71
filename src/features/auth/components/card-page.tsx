import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';

/**
 * The card the pages an auth e-mail leads to share (set a password, confirm a link): a title
 * that takes focus as each state replaces the last, an introduction, and the way back to sign-in.
 */
export function CardPage({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Each state is a new page for the reader: move focus to its heading (the link's session
  // may arrive after the first paint, replacing the spinner).
  useEffect(() => {
    heading.current?.focus();
  }, [title]);

  return (
    <main className="from-navy-900 to-navy-700 flex min-h-screen flex-col items-center bg-gradient-to-b px-4 py-10 sm:py-16">
      <div className="flex w-full max-w-md flex-col gap-6">
        <section aria-labelledby="auth-card-page-title" className="rounded-xl bg-white p-5 shadow-xl sm:p-6">
          <h1
            ref={heading}
            id="auth-card-page-title"
            tabIndex={-1}
            className="text-navy-900 mb-2 font-serif text-2xl font-bold break-words focus:outline-none sm:text-3xl"
          >
            {title}
          </h1>
          <p className="mb-5 break-words text-slate-700">{intro}</p>
          {children}
        </section>
        <Link
          to={paths.auth}
          className="inline-flex min-h-11 items-center gap-2 self-center rounded-lg px-4 py-2 font-semibold text-white hover:bg-white/10"
        >
          <span aria-hidden="true">←</span> Back to Sign In
        </Link>
      </div>
    </main>
  );
}
