import type { User } from '@supabase/supabase-js';
import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { signOut } from '@/features/auth';
import { QueryProvider } from '@/lib/query-client';
import { useProfile } from '../api/get-profile';
import { useSaveProfile } from '../api/save-profile';
import { useUploadAvatar } from '../api/upload-avatar';
import { useProfileRealtime } from '../api/use-profile-realtime';
import { profileState } from '../lib/profile-state';
import { AccountMenuView } from './account-menu-view';

/** The signed-in user's menu (lazy-loaded by the app's account corner). */
export function AccountMenu({ user }: { user: User }) {
  return (
    <QueryProvider>
      <AccountMenuContainer user={user} />
    </QueryProvider>
  );
}

function AccountMenuContainer({ user }: { user: User }) {
  const navigate = useNavigate();
  const profileRead = useProfile(user.id);
  useProfileRealtime(user.id);
  const saveProfile = useSaveProfile(user.id);
  const uploadAvatar = useUploadAvatar(user.id);

  return (
    <AccountMenuView
      email={user.email ?? null}
      profile={profileState(profileRead)}
      onRetry={() => void profileRead.refetch()}
      onUploadAvatar={async (file) => {
        await uploadAvatar.mutateAsync(file);
      }}
      onSaveDisplayName={async (displayName) => {
        await saveProfile.mutateAsync({ display_name: displayName });
      }}
      onSignOut={signOut}
      onSignedOut={() => void navigate(paths.home)}
    />
  );
}
