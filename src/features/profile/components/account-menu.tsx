import type { User } from '@supabase/supabase-js';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { paths } from '@/config/paths';
import { account } from '@/content/account';
import { signOut } from '@/features/auth';
import { useIsStaff } from '@/features/staff';
import { QueryProvider } from '@/lib/query-client';
import { useProfile } from '../api/get-profile';
import { deleteMyAccount, downloadMyData } from '../api/my-account';
import { useSaveProfile } from '../api/save-profile';
import { useUploadAvatar } from '../api/upload-avatar';
import { useProfileRealtime } from '../api/use-profile-realtime';
import { profileState } from '../lib/profile-state';
import { AccountMenuView } from './account-menu-view';

/**
 * A page that must run its own sign-out (/resources: its session guard would otherwise send
 * the user to /auth before the menu sends them home) hands it in; elsewhere the menu's own.
 */
export type MenuSignOut = { onSignOut: () => Promise<void>; onSignedOut: () => void };

type AccountMenuProps = { user: User; signOut?: MenuSignOut };

/** The signed-in user's menu (lazy-loaded by the app's account corner). */
export function AccountMenu(props: AccountMenuProps) {
  return (
    <QueryProvider>
      <AccountMenuContainer {...props} />
    </QueryProvider>
  );
}

function AccountMenuContainer({ user, signOut: pageSignOut }: AccountMenuProps) {
  const navigate = useNavigate();
  const profileRead = useProfile(user.id);
  // Staff links are a convenience: shown once the database says staff, never on a guess.
  const staff = useIsStaff(user.id);
  useProfileRealtime(user.id);
  const saveProfile = useSaveProfile(user.id);
  const uploadAvatar = useUploadAvatar(user.id);

  /**
   * The account is gone on the server (its sessions too): end this tab's session the way the
   * page signs out (other tabs follow through the storage event and return to sign-in), say
   * what happened and what was kept, and go home. The server already refused the old session,
   * so the sign-out's own answer (session not found) is ignored by supabase-js.
   */
  async function leave() {
    try {
      await (pageSignOut?.onSignOut ?? signOut)();
    } catch (error) {
      console.error('Sign-out after the account was deleted', error);
    }
    toast.success(account.remove.done, { description: account.remove.doneDescription, duration: 15_000 });
    (pageSignOut?.onSignedOut ?? (() => void navigate(paths.home)))();
  }

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
      isStaff={staff.status === 'ready' && staff.data}
      onSignOut={pageSignOut?.onSignOut ?? signOut}
      onSignedOut={pageSignOut?.onSignedOut ?? (() => void navigate(paths.home))}
      onDownloadData={downloadMyData}
      onDeleteAccount={deleteMyAccount}
      onAccountDeleted={() => void leave()}
    />
  );
}
