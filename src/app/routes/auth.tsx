import { AuthScreen } from '@/features/auth/components/auth-screen';
import { QueryProvider } from '@/lib/query-client';

export function Component() {
  return (
    <QueryProvider>
      <AuthScreen />
    </QueryProvider>
  );
}
