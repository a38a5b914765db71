import { useEffect, useId, useRef, useState, type ChangeEvent, type RefObject } from 'react';
import { toast } from 'sonner';
import { buttonClasses } from '@/components/ui/button';
import { ConfirmFooter } from '@/components/ui/confirm-footer';
import { FormDialog, type InDialog } from '@/components/ui/dialog';
import { Field, Form, useForm } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/cn';
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
type Phase = 'uploading' | 'saving';

/**
 * The Edit Profile dialog. Nothing is written until Save Changes; while it runs the dialog
 * cannot be dismissed, so Cancel never pretends to undo a save that is already under way.
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
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      onCloseAutoFocus={onCloseAutoFocus}
      title="Edit Profile"
      description="Update your picture and the name shown in your account menu."
    >
      {/* Mounted per opening: it starts from the saved name, and a picture chosen but not saved is gone. */}
      {(dialog) => <EditProfileForm {...props} dialog={dialog} />}
    </FormDialog>
  );
}

/** Ends a backend message as a sentence, so a plain sentence can follow it. */
function sentence(message: string): string {
  return /[.!?]$/.test(message) ? message : `${message}.`;
}

type Picture = { file: File; previewUrl: string };

/** The picture chosen and not yet saved, with its preview's object URL. */
function useChosenPicture() {
  const [picture, setPicture] = useState<Picture | null>(null);
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

  return [picture, choose] as const;
}

/**
 * Save Changes: the new picture first, then the name. With a new picture and the same name,
 * only the picture is saved; a failure says what was and was not saved.
 */
function useSaveProfile({
  displayName,
  onUploadAvatar,
  onSaveDisplayName,
  dialog,
}: Pick<EditProfileProps, 'displayName' | 'onUploadAvatar' | 'onSaveDisplayName'> & { dialog: InDialog }) {
  const form = useForm<Phase>(dialog.onBusyChange);

  async function save(name: string, picture: Picture | null, saved: () => void) {
    const newName = name.trim() || null;
    const saveName = !picture || newName !== displayName;
    if (picture) {
      const uploaded = await form.run('uploading', () => onUploadAvatar(picture.file), {
        stayBusy: saveName,
        onError: (message) =>
          toast.error('Error uploading avatar', {
            description: `${sentence(message)} Nothing was saved; you can try again.`,
          }),
      });
      if (!uploaded) return;
      // Saved: a second Save Changes must not upload it again.
      saved();
      if (!saveName) {
        toast.success('Avatar updated', { description: 'Your profile picture has been updated successfully' });
        return dialog.close();
      }
    }
    const named = await form.run('saving', () => onSaveDisplayName(newName), {
      onError: (message) =>
        toast.error('Error updating profile', {
          description: picture ? `Your new picture was saved, but your display name was not: ${message}` : message,
        }),
    });
    if (!named) return;
    toast.success('Profile updated', {
      description: picture
        ? 'Your profile picture and display name have been updated successfully'
        : 'Your profile has been updated successfully',
    });
    dialog.close();
  }

  return { form, save };
}

function EditProfileForm({
  email,
  displayName,
  avatarUrl,
  dialog,
  ...actions
}: EditProfileProps & { dialog: InDialog }) {
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [name, setName] = useState(displayName ?? '');
  const [picture, choose] = useChosenPicture();
  const { form, save } = useSaveProfile({ displayName, dialog, ...actions });

  function forgetSavedPicture() {
    choose(null);
    if (fileInput.current) fileInput.current.value = '';
  }

  return (
    <Form
      state={form}
      onSubmit={() => save(name, picture, forgetSavedPicture)}
      // The button's words say what is under way; the form itself is not marked busy.
      aria-busy={undefined}
      className="flex flex-col gap-5"
    >
      <AvatarPicker
        id={`${id}-avatar`}
        fileInput={fileInput}
        picture={picture}
        onChoose={choose}
        busy={form.isBusy}
        url={picture?.previewUrl ?? avatarUrl}
        alt={picture ? 'Preview of your new profile picture' : avatarUrl ? 'Your current profile picture' : ''}
        initials={getInitials(name || displayName, email)}
      />
      <Field id={`${id}-name`} label="Display Name">
        <Input
          name="displayName"
          autoComplete="name"
          // The database refuses more (profiles.display_name check); say so before it does.
          maxLength={80}
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="Your name"
        />
      </Field>
      <Field id={`${id}-email`} label="Email" hint="Your sign-in e-mail cannot be changed here.">
        <Input type="email" value={email ?? ''} readOnly />
      </Field>
      <ConfirmFooter
        busy={form.isBusy}
        idle="Save Changes"
        busyLabel={form.busy === 'uploading' ? 'Uploading...' : 'Saving...'}
        variant="gold"
        keepFocus={false}
      />
    </Form>
  );
}

/** The picture: the avatar as it will be, the chooser, and what was chosen, in words. */
function AvatarPicker({
  id,
  fileInput,
  picture,
  onChoose,
  busy,
  url,
  alt,
  initials,
}: {
  id: string;
  fileInput: RefObject<HTMLInputElement | null>;
  picture: Picture | null;
  onChoose: (file: File | null) => void;
  busy: boolean;
  url: string | null;
  alt: string;
  initials: string;
}) {
  function handleFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0] ?? null;
    const problem = file ? checkAvatarFile(file) : null;
    if (problem) {
      toast.error(problem.title, { description: problem.description });
      // The chooser is emptied, so the refused file is not left looking chosen.
      event.target.value = '';
      onChoose(null);
      return;
    }
    onChoose(file);
  }

  return (
    <div className="flex items-start gap-4">
      <Avatar url={url} alt={alt} initials={initials} size="lg" />
      <div className="flex min-w-0 flex-1 flex-col items-start gap-1.5">
        <Label id={`${id}-label`} htmlFor={id}>
          Profile picture
        </Label>
        {/*
          The browser's own chooser clips its "No file chosen" text in a narrow dialog. It is
          kept (keyboard, screen readers, the file picker) but visually hidden; the visible
          button below is its second label, and the chosen file is named in our own words.
        */}
        <input
          ref={fileInput}
          id={id}
          type="file"
          accept={AVATAR_ACCEPT}
          disabled={busy}
          aria-labelledby={`${id}-label`}
          aria-describedby={picture ? `${id}-hint ${id}-status` : `${id}-hint`}
          onChange={handleFile}
          className="peer sr-only"
        />
        <label
          htmlFor={id}
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
        <p id={`${id}-status`} role="status" aria-live="polite" className="text-navy-800 text-sm wrap-anywhere">
          {picture ? `New picture: ${picture.file.name}. It is saved when you press Save Changes.` : ''}
        </p>
        <p id={`${id}-hint`} className="text-xs text-slate-700">
          A PNG, JPEG, WebP or GIF image up to 2MB.
        </p>
      </div>
    </div>
  );
}
