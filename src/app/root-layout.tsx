import { Outlet, ScrollRestoration } from 'react-router-dom';
import { Toaster } from '@/components/ui/toaster';
import { AuthProvider } from '@/features/auth/auth-provider';

export function RootLayout() {
  return (
    <AuthProvider>
      <Outlet />
      <Toaster />
      <ScrollRestoration />
    </AuthProvider>
  );
}
