import { useRef, useState, type RefObject } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { paths } from '@/config/paths';
import { account } from '@/content/account';
import { errorMessage } from '@/lib/error-message';
import { displayNameOrPlaceholder, getInitials } from '../lib/identity';
import type { ProfileState } from '../lib/profile-state';
import { Avatar } from './avatar';
import { DeleteAccountDialog } from './delete-account-dialog';
import { EditProfileDialog, type EditProfileActions } from './edit-profile-dialog';

export type AccountMenuViewProps = EditProfileActions & {
  email: string | null;
  profile: ProfileState;
  /** Reads the profile again (after "could not load"). */
  onRetry: () => void;
  /** Staff see links to the staff pages. */
  isStaff?: boolean;
  /** Resolves when signed out; throws otherwise. */
  onSignOut: () => Promise<void>;
  /** Called after a successful sign-out (the container goes home). */
  onSignedOut: () => void;
  /** Downloads the member's own data as one JSON file; throws on failure. */
  onDownloadData: () => Promise<void>;
  /** Deletes the account once the password is checked; throws when refused. */
  onDeleteAccount: (password: string) => Promise<void>;
  /** After the deletion: the container signs out, says what happened and goes home. */
  onAccountDeleted: () => void;
};

const couldNotLoad = "Couldn't load your profile";

/** Signs out; on success says so and lets the container go home, else says why not. */
async function signOutWithToast(onSignOut: () => Promise<void>, onSignedOut: () => void) {
  try {
    await onSignOut();
    // The spec's sign-out operation: toast, then go to /.
    toast.success('Signed out successfully');
    onSignedOut();
  } catch (error) {
    toast.error('Error signing out', { description: errorMessage(error) });
  }
}

/** A toast with a spinner while the file is prepared: the menu has closed by then. */
function downloadWithToast(onDownloadData: () => Promise<void>) {
  toast.promise(onDownloadData(), {
    loading: account.download.busy,
    success: () => ({ message: account.download.done, description: account.download.doneDescription }),
    error: (error: unknown) => ({ message: account.download.failed, description: errorMessage(error) }),
  });
}

type Known = Extract<ProfileState, { status: 'ready' }>;

/** Who is signed in, or why that is not known yet. */
function ProfileLabel({
  profile,
  known,
  name,
  email,
}: {
  profile: ProfileState;
  known: Known | null;
  name: string | null;
  email: string | null;
}) {
  return (
    <DropdownMenuLabel className="flex flex-col gap-0.5">
      {profile.status === 'loading' && <span className="text-slate-700">Loading your profile...</span>}
      {profile.status === 'error' && <span className="font-semibold text-red-800">{couldNotLoad}</span>}
      {name && <span className="font-semibold">{name}</span>}
      {email && <span className="truncate text-sm font-normal text-slate-700">{email}</span>}
      {known?.refreshFailed && <span className="text-sm font-normal text-red-800">Couldn't refresh your profile</span>}
    </DropdownMenuLabel>
  );
}

type AccountDropdownProps = {
  triggerRef: RefObject<HTMLButtonElement | null>;
  profile: ProfileState;
  known: Known | null;
  email: string | null;
  isStaff: boolean;
  onRetry: () => void;
  onEdit: () => void;
  onDownload: () => void;
  onSignOut: () => void;
  onDelete: () => void;
};

/** The avatar button and the menu it opens. */
function AccountDropdown({
  triggerRef,
  profile,
  known,
  email,
  isStaff,
  onRetry,
  onEdit,
  onDownload,
  onSignOut,
  onDelete,
}: AccountDropdownProps) {
  const initials = getInitials(known?.displayName, email);
  const name = known ? displayNameOrPlaceholder(known.displayName) : null;
  const failed = profile.status === 'error' || (known?.refreshFailed ?? false);
  return (
    // Not modal: a modal menu closing while the dialog opens can leave the page inert.
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger
        ref={triggerRef}
        aria-label="Account menu"
        className="focus-visible:outline-gold-500 relative rounded-full shadow ring-2 ring-white focus-visible:outline-2 focus-visible:outline-offset-2"
      >
        <Avatar
          url={known?.avatarUrl ?? null}
          initials={initials}
          alt={name ? `Profile picture of ${name}` : 'Your profile picture'}
        />
        {/* Seen without opening the menu; the words are in the menu and the status below. */}
        {failed && (
          <span
            aria-hidden="true"
            className="absolute -top-0.5 -right-0.5 size-3 rounded-full bg-red-700 ring-2 ring-white"
          />
        )}
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <ProfileLabel profile={profile} known={known} name={name} email={email} />
        <DropdownMenuSeparator />
        {failed && <DropdownMenuItem onSelect={onRetry}>Retry</DropdownMenuItem>}
        <DropdownMenuItem asChild>
          <Link to={paths.resources}>My Resources</Link>
        </DropdownMenuItem>
        {isStaff && (
          <>
            <DropdownMenuItem asChild>
              <Link to={paths.staff}>Dashboard</Link>
            </DropdownMenuItem>
            <DropdownMenuItem asChild>
              <Link to={paths.staffCatalog}>Catalog</Link>
            </DropdownMenuItem>
            <DropdownMenuItem asChild>
              <Link to={paths.adminUpload}>Upload Resources</Link>
            </DropdownMenuItem>
            <DropdownMenuItem asChild>
              <Link to={paths.staffMembers}>Members</Link>
            </DropdownMenuItem>
            <DropdownMenuItem asChild>
              <Link to={paths.staffSessions}>Sessions</Link>
            </DropdownMenuItem>
          </>
        )}
        <DropdownMenuItem disabled={!known} onSelect={onEdit}>
          Edit Profile
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={onDownload}>{account.menu.download}</DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to={paths.privacy}>{account.menu.privacy}</Link>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={onSignOut}>Sign Out</DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onDelete} className="text-red-800">
          {account.menu.delete}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/**
 * The profile menu: avatar button, name (or 'No name set') and e-mail, links to the user's
 * resources (and for staff, the staff pages), Edit Profile, Sign Out.
 * While the profile is unknown (loading, or could not load) it says so instead of 'No name
 * set', and Edit Profile stays shut: a form prefilled with an empty name would wipe the real one.
 */
export function AccountMenuView({
  email,
  profile,
  onRetry,
  isStaff = false,
  onSignOut,
  onSignedOut,
  onDownloadData,
  onDeleteAccount,
  onAccountDeleted,
  ...actions
}: AccountMenuViewProps) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const known = profile.status === 'ready' ? profile : null;

  return (
    <>
      <AccountDropdown
        triggerRef={trigger}
        profile={profile}
        known={known}
        email={email}
        isStaff={isStaff}
        onRetry={onRetry}
        onEdit={() => setEditing(true)}
        onDownload={() => downloadWithToast(onDownloadData)}
        onSignOut={() => void signOutWithToast(onSignOut, onSignedOut)}
        onDelete={() => setDeleting(true)}
      />
      {/* Outside the menu, so a screen reader hears a failed read without opening it. */}
      <p role="status" aria-live="polite" className="sr-only">
        {profile.status === 'error' ? couldNotLoad : ''}
      </p>
      <DeleteAccountDialog
        open={deleting}
        onOpenChange={setDeleting}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          trigger.current?.focus();
        }}
        onDelete={onDeleteAccount}
        onDeleted={() => {
          setDeleting(false);
          onAccountDeleted();
        }}
      />
      {known && (
        <EditProfileDialog
          {...actions}
          email={email}
          displayName={known.displayName}
          avatarUrl={known.avatarUrl}
          open={editing}
          onOpenChange={setEditing}
          onCloseAutoFocus={(event) => {
            // The item that opened the dialog is gone: return focus to the avatar button.
            event.preventDefault();
            trigger.current?.focus();
          }}
        />
      )}
    </>
  );
}
