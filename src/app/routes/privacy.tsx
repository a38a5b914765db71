import { Link } from 'react-router-dom';
import { AccountCorner } from '@/app/account-corner';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { privacy } from '@/content/privacy';
import { privacyPage } from '@/content/privacy-page';
import { site } from '@/content/site';

/** /privacy: the text of src/content/privacy.ts, prerendered like the other public pages. */
export function Component() {
  return (
    <div className="bg-cream min-h-screen">
      <header className="mx-auto max-w-3xl px-4 pt-3 pr-28 sm:px-6 sm:pt-4 sm:pr-32">
        <Link to={paths.home} className={buttonClasses('ghost', 'sm')}>
          <span aria-hidden="true">←</span> {privacy.backHome}
        </Link>
        <AccountCorner />
      </header>
      <main className="mx-auto max-w-3xl px-4 pb-12 sm:px-6">
        <h1 className="pt-8 font-serif text-4xl font-bold sm:text-5xl">{privacy.title}</h1>
        <p className="text-navy-800 mt-4 text-lg">{privacyPage.intro}</p>
        <p className="mt-2 text-sm text-slate-700">{privacyPage.updated}</p>
        {privacyPage.sections.map((section) => (
          <section key={section.heading} className="mt-8">
            <h2 className="font-serif text-2xl font-bold">{section.heading}</h2>
            {'paragraphs' in section &&
              section.paragraphs.map((paragraph) => (
                <p key={paragraph} className="text-navy-900 mt-3">
                  {paragraph}
                </p>
              ))}
            {'items' in section && (
              <ul className="text-navy-900 mt-3 list-disc space-y-2 pl-6">
                {section.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            )}
          </section>
        ))}
        <p className="text-navy-900 mt-10">
          {privacyPage.contact}{' '}
          <a href={`mailto:${site.contactEmail}`} className="font-semibold break-words underline underline-offset-4">
            {site.contactEmail}
          </a>
        </p>
      </main>
    </div>
  );
}
