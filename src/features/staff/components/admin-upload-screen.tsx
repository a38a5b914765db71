import { FullPageSpinner } from '@/components/ui/spinner';
import { useAuth } from '@/lib/auth-provider';
import { useIsStaff } from '../api/is-staff';
import { useUploadResource } from '../api/upload-resource';
import { StaffOnlyView, UploadResourcesView } from './admin-upload-view';

/** Container for /admin-upload: staff get the form; everyone else a clear "staff only" page. */
export function AdminUploadScreen() {
  const { status, user } = useAuth({ connect: true });
  if (status === 'loading') return <FullPageSpinner label="Checking access..." />;
  if (!user) return <StaffOnlyView signedIn={false} />;
  return <StaffGate userId={user.id} />;
}

function StaffGate({ userId }: { userId: string }) {
  const { isStaff, isPending } = useIsStaff(userId);
  const upload = useUploadResource();
  if (isPending) return <FullPageSpinner label="Checking access..." />;
  if (!isStaff) return <StaffOnlyView signedIn />;
  return (
    <UploadResourcesView
      onUpload={async (card, file, onProgress) => {
        await upload.mutateAsync({ card, file, onProgress });
      }}
    />
  );
}
