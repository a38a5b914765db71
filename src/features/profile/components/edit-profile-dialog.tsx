import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorMessage } from '@/lib/error-message';
import { AVATAR_ACCEPT, checkAvatarFile } from '../lib/avatar-file';
import { getInitials } from '../lib/identity';
import { Avatar } from './avatar';

export type EditProfileProps = {
  email: string | null;
  displayName: string | null;
  avatarUrl: string | null;
  /** Uploads and saves the picture; throws on failure. */
  onUploadAvatar: (file: File) => Promise<void>;
  /** Saves the display name (null clears it); throws on failure. */
  onSaveDisplayName: (displayName: string | null) => Promise<void>;
};

/** The Edit Profile dialog (Radix: focus trap, Escape, focus back to the menu button). */
export function EditProfileDialog({
  open,
  onOpenChange,
  onCloseAutoFocus,
  ...props
}: EditProfileProps & {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Edit Profile</DialogTitle>
          <DialogDescription>Update your picture and the name shown in your account menu.</DialogDescription>
        </DialogHeader>
        {/* Mounted per opening, so the name field starts from the saved name each time. */}
        <EditProfileForm {...props} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function EditProfileForm({
  email,
  displayName,
  avatarUrl,
  onUploadAvatar,
  onSaveDisplayName,
  onDone,
}: EditProfileProps & { onDone: () => void }) {
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [name, setName] = useState(displayName ?? '');
  const [uploading, setUploading] = useState(false);
  const [saving, setSaving] = useState(false);

  async function handleFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    const problem = checkAvatarFile(file);
    if (problem) {
      toast.error(problem.title, { description: problem.description });
      if (fileInput.current) fileInput.current.value = '';
      return;
    }
    setUploading(true);
    try {
      await onUploadAvatar(file);
      toast.success('Avatar updated', { description: 'Your profile picture has been updated successfully' });
    } catch (error) {
      toast.error('Error uploading avatar', { description: errorMessage(error) });
    } finally {
      setUploading(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    try {
      await onSaveDisplayName(name.trim() || null);
      toast.success('Profile updated', { description: 'Your profile has been updated successfully' });
      onDone();
    } catch (error) {
      toast.error('Error updating profile', { description: errorMessage(error) });
      setSaving(false);
    }
  }

  return (
    <form onSubmit={(event) => void handleSubmit(event)} className="flex flex-col gap-5">
      <div className="flex items-center gap-4">
        <Avatar url={avatarUrl} initials={getInitials(name || displayName, email)} className="size-16 text-xl" />
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <Label htmlFor={`${id}-avatar`}>Profile picture</Label>
          <Input
            ref={fileInput}
            id={`${id}-avatar`}
            type="file"
            accept={AVATAR_ACCEPT}
            disabled={uploading}
            aria-describedby={`${id}-avatar-hint`}
            onChange={(event) => void handleFile(event)}
            className="min-h-0 px-2 py-1.5 text-sm"
          />
          <p id={`${id}-avatar-hint`} className="text-xs text-slate-700">
            A PNG, JPEG, WebP or GIF image up to 2MB.
          </p>
          <p role="status" aria-live="polite" className="text-navy-800 text-sm font-semibold">
            {uploading ? 'Uploading...' : ''}
          </p>
        </div>
      </div>

      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-name`}>Display Name</Label>
        <Input
          id={`${id}-name`}
          name="displayName"
          autoComplete="name"
          // The database refuses more (profiles.display_name check); say so before it does.
          maxLength={80}
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="Your name"
        />
      </div>

      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-email`}>Email</Label>
        <Input id={`${id}-email`} type="email" value={email ?? ''} readOnly aria-describedby={`${id}-email-hint`} />
        <p id={`${id}-email-hint`} className="text-xs text-slate-700">
          Your sign-in e-mail cannot be changed here.
        </p>
      </div>

      <DialogFooter className="mt-1">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" variant="gold" disabled={saving || uploading}>
          {saving ? 'Saving...' : 'Save Changes'}
        </Button>
      </DialogFooter>
    </form>
  );
}
