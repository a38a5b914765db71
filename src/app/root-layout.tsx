import { Outlet, ScrollRestoration } from 'react-router-dom';
import { Toaster } from '@/components/ui/toaster';
import { AuthProvider } from '@/lib/auth-provider';
import { PageTitle } from './page-title';

export function RootLayout() {
  return (
    <AuthProvider>
      <Outlet />
      <Toaster />
      <PageTitle />
      <ScrollRestoration />
    </AuthProvider>
  );
}
