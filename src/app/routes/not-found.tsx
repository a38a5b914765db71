import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';

export function Component() {
  const location = useLocation();

  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', location.pathname);
  }, [location.pathname]);

  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="font-serif text-5xl font-bold">404</h1>
      <p className="text-xl">Oops! Page not found</p>
      <Link to={paths.home} className={buttonClasses('gold')}>
        Return to Home
      </Link>
    </main>
  );
}
