import { AdminUploadScreen } from '@/features/staff/components/admin-upload-screen';
import { QueryProvider } from '@/lib/query-client';

export function Component() {
  return (
    <QueryProvider>
      <AdminUploadScreen />
    </QueryProvider>
  );
}
