import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button, buttonClasses } from '@/components/ui/button';
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
import { cn } from '@/lib/cn';
import { errorMessage } from '@/lib/error-message';
import { AVATAR_ACCEPT, checkAvatarFile } from '../lib/avatar-file';
import { getInitials } from '../lib/identity';
import { Avatar } from './avatar';

export type EditProfileActions = {
  /** Uploads and saves the picture; throws on failure. */
  onUploadAvatar: (file: File) => Promise<void>;
  /** Saves the display name (null clears it); throws on failure. */
  onSaveDisplayName: (displayName: string | null) => Promise<void>;
};

export type EditProfileProps = EditProfileActions & {
  email: string | null;
  displayName: string | null;
  avatarUrl: string | null;
};

/** What Save Changes is doing: the spec's "Uploading..." and "Saving..." states. */
type Busy = 'idle' | 'uploading' | 'saving';

/**
 * The Edit Profile dialog (Radix: focus trap, Escape, focus back to the menu button). Nothing
 * is written until Save Changes; while it runs the dialog cannot be dismissed, so Cancel
 * never pretends to undo a save that is already under way.
 */
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
  const [busy, setBusy] = useState(false);
  const stayWhileBusy = (event: Event) => {
    if (busy) event.preventDefault();
  };
  return (
    <Dialog open={open} onOpenChange={(next) => (next || !busy) && onOpenChange(next)}>
      <DialogContent
        onCloseAutoFocus={onCloseAutoFocus}
        onEscapeKeyDown={stayWhileBusy}
        onInteractOutside={stayWhileBusy}
      >
        <DialogHeader>
          <DialogTitle>Edit Profile</DialogTitle>
          <DialogDescription>Update your picture and the name shown in your account menu.</DialogDescription>
        </DialogHeader>
        {/* Mounted per opening: it starts from the saved name, and a picture chosen but not saved is gone. */}
        <EditProfileForm {...props} onBusyChange={setBusy} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

/** Ends a backend message as a sentence, so a plain sentence can follow it. */
function sentence(message: string): string {
  return /[.!?]$/.test(message) ? message : `${message}.`;
}

function EditProfileForm({
  email,
  displayName,
  avatarUrl,
  onUploadAvatar,
  onSaveDisplayName,
  onBusyChange,
  onDone,
}: EditProfileProps & { onBusyChange: (busy: boolean) => void; onDone: () => void }) {
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [name, setName] = useState(displayName ?? '');
  const [picture, setPicture] = useState<{ file: File; previewUrl: string } | null>(null);
  const [busy, setBusyState] = useState<Busy>('idle');

  // The preview's object URL lives as long as it is shown: revoked when replaced or closed.
  const previewUrl = useRef<string | null>(null);
  useEffect(
    () => () => {
      if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
      previewUrl.current = null;
    },
    [],
  );

  function choose(file: File | null) {
    if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    previewUrl.current = file ? URL.createObjectURL(file) : null;
    setPicture(file && previewUrl.current ? { file, previewUrl: previewUrl.current } : null);
  }

  function setBusy(next: Busy) {
    setBusyState(next);
    onBusyChange(next !== 'idle');
  }

  function handleFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0] ?? null;
    const problem = file ? checkAvatarFile(file) : null;
    if (problem) {
      toast.error(problem.title, { description: problem.description });
      // The chooser is emptied, so the refused file is not left looking chosen.
      event.target.value = '';
      choose(null);
      return;
    }
    choose(file);
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy !== 'idle') return;
    const newName = name.trim() || null;
    // With a new picture and the same name, only the picture is saved.
    const saveName = !picture || newName !== displayName;

    if (picture) {
      setBusy('uploading');
      try {
        await onUploadAvatar(picture.file);
      } catch (error) {
        toast.error('Error uploading avatar', {
          description: `${sentence(errorMessage(error))} Nothing was saved; you can try again.`,
        });
        setBusy('idle');
        return;
      }
      // Saved: a second Save Changes must not upload it again.
      choose(null);
      if (fileInput.current) fileInput.current.value = '';
      if (!saveName) {
        toast.success('Avatar updated', { description: 'Your profile picture has been updated successfully' });
        setBusy('idle');
        onDone();
        return;
      }
    }

    setBusy('saving');
    try {
      await onSaveDisplayName(newName);
    } catch (error) {
      toast.error('Error updating profile', {
        description: picture
          ? `Your new picture was saved, but your display name was not: ${errorMessage(error)}`
          : errorMessage(error),
      });
      setBusy('idle');
      return;
    }
    toast.success('Profile updated', {
      description: picture
        ? 'Your profile picture and display name have been updated successfully'
        : 'Your profile has been updated successfully',
    });
    setBusy('idle');
    onDone();
  }

  const shownUrl = picture?.previewUrl ?? avatarUrl;
  const pictureAlt = picture ? 'Preview of your new profile picture' : avatarUrl ? 'Your current profile picture' : '';

  return (
    <form onSubmit={(event) => void handleSubmit(event)} className="flex flex-col gap-5">
      <div className="flex items-start gap-4">
        <Avatar url={shownUrl} alt={pictureAlt} initials={getInitials(name || displayName, email)} size="lg" />
        <div className="flex min-w-0 flex-1 flex-col items-start gap-1.5">
          <Label id={`${id}-avatar-label`} htmlFor={`${id}-avatar`}>
            Profile picture
          </Label>
          {/*
            The browser's own chooser clips its "No file chosen" text in a narrow dialog. It is
            kept (keyboard, screen readers, the file picker) but visually hidden; the visible
            button below is its second label, and the chosen file is named in our own words.
          */}
          <input
            ref={fileInput}
            id={`${id}-avatar`}
            type="file"
            accept={AVATAR_ACCEPT}
            disabled={busy !== 'idle'}
            aria-labelledby={`${id}-avatar-label`}
            aria-describedby={picture ? `${id}-avatar-hint ${id}-avatar-status` : `${id}-avatar-hint`}
            onChange={handleFile}
            className="peer sr-only"
          />
          <label
            htmlFor={`${id}-avatar`}
            aria-hidden="true"
            className={cn(
              buttonClasses('outline', 'sm'),
              'cursor-pointer',
              'peer-focus-visible:outline-gold-500 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2',
              'peer-disabled:cursor-not-allowed peer-disabled:opacity-60',
            )}
          >
            {picture ? 'Choose another picture' : 'Choose a picture'}
          </label>
          <p
            id={`${id}-avatar-status`}
            role="status"
            aria-live="polite"
            className="text-navy-800 text-sm wrap-anywhere"
          >
            {picture ? `New picture: ${picture.file.name}. It is saved when you press Save Changes.` : ''}
          </p>
          <p id={`${id}-avatar-hint`} className="text-xs text-slate-700">
            A PNG, JPEG, WebP or GIF image up to 2MB.
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

      <DialogFooter spacing="tight">
        <DialogClose asChild>
          <Button variant="outline" disabled={busy !== 'idle'}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" variant="gold" disabled={busy !== 'idle'}>
          {busy === 'uploading' ? 'Uploading...' : busy === 'saving' ? 'Saving...' : 'Save Changes'}
        </Button>
      </DialogFooter>
    </form>
  );
}
