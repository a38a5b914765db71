import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { ConfigError } from '@/config/config-error';
import { paths } from '@/config/paths';
import { buttonClasses } from '@/components/ui/button';

/** Shown when the site is not configured: says which variable is wrong and how to fix it. */
export function ConfigErrorPage({ error }: { error: ConfigError }) {
  return (
    <main className="mx-auto flex min-h-screen max-w-2xl flex-col justify-center gap-4 p-6">
      <h1 className="font-serif text-3xl font-bold">The site is not configured yet</h1>
      <ul className="list-disc pl-6 text-red-800">
        {error.problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
      <p>
        Set <code>VITE_SUPABASE_URL</code> and <code>VITE_SUPABASE_ANON_KEY</code> in <code>.env.local</code> to your
        Supabase project’s URL and public anon key (Project Settings → API), then restart. Or run{' '}
        <code>npm run dev</code> with neither set to use the local stand-in.
      </p>
      <a className={buttonClasses('outline', 'md', 'self-start')} href={paths.home}>
        Return to Home
      </a>
    </main>
  );
}

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The router's error screen: never a blank page. */
export function ErrorPage() {
  const error = useRouteError();
  if (error instanceof ConfigError) return <ConfigErrorPage error={error} />;
  return (
    <main className="mx-auto flex min-h-screen max-w-2xl flex-col justify-center gap-4 p-6">
      <h1 className="font-serif text-3xl font-bold">Unexpected Application Error!</h1>
      <p className="rounded bg-red-50 p-4 text-red-900">{describe(error)}</p>
      <a className={buttonClasses('outline', 'md', 'self-start')} href={paths.home}>
        Return to Home
      </a>
    </main>
  );
}
