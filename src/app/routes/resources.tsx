import { ResourcesScreen } from '@/features/resources/components/resources-screen';
import { QueryProvider } from '@/lib/query-client';

export function Component() {
  return (
    <QueryProvider>
      <ResourcesScreen />
    </QueryProvider>
  );
}
