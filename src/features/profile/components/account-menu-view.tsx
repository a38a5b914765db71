import { useRef, useState } from 'react';
import { toast } from 'sonner';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { errorMessage } from '@/lib/error-message';
import { displayNameOrPlaceholder, getInitials } from '../lib/identity';
import { Avatar } from './avatar';
import { EditProfileDialog, type EditProfileProps } from './edit-profile-dialog';

export type AccountMenuViewProps = EditProfileProps & {
  /** Resolves when signed out; throws otherwise. */
  onSignOut: () => Promise<void>;
  /** Called after a successful sign-out (the container goes home). */
  onSignedOut: () => void;
};

/** The profile menu: avatar button, name (or 'No name set') and e-mail, Edit Profile, Sign Out. */
export function AccountMenuView({ onSignOut, onSignedOut, ...profile }: AccountMenuViewProps) {
  const [editing, setEditing] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const initials = getInitials(profile.displayName, profile.email);
  const name = displayNameOrPlaceholder(profile.displayName);

  async function handleSignOut() {
    try {
      await onSignOut();
      // The spec's sign-out operation: toast, then go to /.
      toast.success('Signed out successfully');
      onSignedOut();
    } catch (error) {
      toast.error('Error signing out', { description: errorMessage(error) });
    }
  }

  return (
    <>
      {/* Not modal: a modal menu closing while the dialog opens can leave the page inert. */}
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger
          ref={trigger}
          aria-label="Account menu"
          className="focus-visible:outline-gold-500 rounded-full shadow ring-2 ring-white focus-visible:outline-2 focus-visible:outline-offset-2"
        >
          <Avatar url={profile.avatarUrl} initials={initials} alt={`Profile picture of ${name}`} />
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          <DropdownMenuLabel className="flex flex-col gap-0.5">
            <span className="font-semibold">{name}</span>
            {profile.email && <span className="truncate text-sm font-normal text-slate-700">{profile.email}</span>}
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setEditing(true)}>Edit Profile</DropdownMenuItem>
          <DropdownMenuItem onSelect={() => void handleSignOut()}>Sign Out</DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <EditProfileDialog
        {...profile}
        open={editing}
        onOpenChange={setEditing}
        onCloseAutoFocus={(event) => {
          // The item that opened the dialog is gone: return focus to the avatar button.
          event.preventDefault();
          trigger.current?.focus();
        }}
      />
    </>
  );
}
