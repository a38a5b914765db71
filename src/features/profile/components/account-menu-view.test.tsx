import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { AccountMenuView, type AccountMenuViewProps } from './account-menu-view';

afterEach(() => {
  toast.dismiss();
});

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

type SetupProps = Partial<AccountMenuViewProps> & { displayName?: string | null; avatarUrl?: string | null };

function setup(
  { displayName = 'Grace Hopper', avatarUrl = null, ...props }: SetupProps = {},
  userOptions: Parameters<typeof userEvent.setup>[0] = {},
) {
  const events: string[] = [];
  const all: AccountMenuViewProps = {
    email: 'grace@example.com',
    profile: { status: 'ready', displayName, avatarUrl, refreshFailed: false },
    onRetry: () => void events.push('retry'),
    onUploadAvatar: async (file) => void events.push(`upload:${file.name}`),
    onSaveDisplayName: async (name) => void events.push(`save:${name}`),
    onSignOut: async () => void events.push('sign-out'),
    onSignedOut: () => void events.push('signed-out'),
    onDownloadData: async () => void events.push('download'),
    onDeleteAccount: async (password) => void events.push(`delete:${password}`),
    onAccountDeleted: () => void events.push('deleted'),
    ...props,
  };
  render(
    <MemoryRouter>
      <Toaster />
      <AccountMenuView {...all} />
    </MemoryRouter>,
  );
  return { user: userEvent.setup(userOptions), events };
}

async function openEditProfile(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Account menu' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Edit Profile' }));
  return screen.findByRole('dialog', { name: 'Edit Profile' });
}

const image = (name: string, bytes: number, type = 'image/png') => new File([new Uint8Array(bytes)], name, { type });

describe('AccountMenuView', () => {
  it('shows initials on the trigger and the name and e-mail in the menu', async () => {
    const { user } = setup();
    const trigger = screen.getByRole('button', { name: 'Account menu' });
    expect(trigger).toHaveTextContent('GH');

    await user.click(trigger);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(menu).getByText('grace@example.com')).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Edit Profile' })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Sign Out' })).toBeInTheDocument();
  });

  it("links to the user's resources, and no staff pages for a member", async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'My Resources' })).toHaveAttribute('href', '/resources');
    expect(within(menu).queryByRole('menuitem', { name: 'Upload Resources' })).not.toBeInTheDocument();
    expect(within(menu).queryByRole('menuitem', { name: 'Members' })).not.toBeInTheDocument();
  });

  it('links staff to the staff pages', async () => {
    const { user } = setup({ isStaff: true });
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'My Resources' })).toHaveAttribute('href', '/resources');
    expect(within(menu).getByRole('menuitem', { name: 'Dashboard' })).toHaveAttribute('href', '/staff');
    expect(within(menu).getByRole('menuitem', { name: 'Catalog' })).toHaveAttribute('href', '/staff/catalog');
    expect(within(menu).getByRole('menuitem', { name: 'Upload Resources' })).toHaveAttribute('href', '/admin-upload');
    expect(within(menu).getByRole('menuitem', { name: 'Members' })).toHaveAttribute('href', '/staff/members');
    expect(within(menu).getByRole('menuitem', { name: 'Sessions' })).toHaveAttribute('href', '/staff/sessions');
  });

  it('says No name set and uses the e-mail initial without a display name', async () => {
    const { user } = setup({ displayName: null });
    expect(screen.getByRole('button', { name: 'Account menu' })).toHaveTextContent('G');
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    expect(within(await screen.findByRole('menu')).getByText('No name set')).toBeInTheDocument();
  });

  it('shows the avatar image when there is one', () => {
    setup({ avatarUrl: 'https://cdn.test/u1/avatar.png?v=1' });
    expect(screen.getByRole('img', { name: 'Profile picture of Grace Hopper' })).toHaveAttribute(
      'src',
      'https://cdn.test/u1/avatar.png?v=1',
    );
  });

  it('can be used with the keyboard', async () => {
    const { user } = setup();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Account menu' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('menu')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Account menu' })).toHaveFocus();
  });

  it('signs out, says so and hands over', async () => {
    const { user, events } = setup();
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign Out' }));
    await waitFor(() => expect(events).toEqual(['sign-out', 'signed-out']));
    expect(await screen.findByText('Signed out successfully')).toBeInTheDocument();
  });

  it('shows Error signing out when sign-out fails', async () => {
    const { user, events } = setup({ onSignOut: () => Promise.reject(new Error('Network error')) });
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign Out' }));
    expect(await screen.findByText('Error signing out')).toBeInTheDocument();
    expect(screen.getByText('Network error')).toBeInTheDocument();
    expect(screen.queryByText('Signed out successfully')).not.toBeInTheDocument();
    expect(events).toEqual([]);
  });
});

describe('Edit Profile dialog', () => {
  it('opens with the current name and a read-only e-mail; Cancel closes and returns focus', async () => {
    const { user, events } = setup();
    const dialog = await openEditProfile(user);
    expect(within(dialog).getByLabelText('Display Name')).toHaveValue('Grace Hopper');
    const email = within(dialog).getByLabelText('Email');
    expect(email).toHaveValue('grace@example.com');
    expect(email).toHaveAttribute('readonly');
    expect(within(dialog).getByLabelText('Profile picture')).toHaveAttribute(
      'accept',
      'image/png,image/jpeg,image/webp,image/gif',
    );
    expect(dialog).toContainElement(document.activeElement as HTMLElement);

    await user.type(within(dialog).getByLabelText('Display Name'), ' Jr');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(events).toEqual([]);
    expect(screen.getByRole('button', { name: 'Account menu' })).toHaveFocus();
    expect(document.body.style.pointerEvents).not.toBe('none');

    // Reopened, it starts from the saved name again.
    const again = await openEditProfile(user);
    expect(within(again).getByLabelText('Display Name')).toHaveValue('Grace Hopper');
  });

  it('keeps focus inside while open (focus trap) and closes on Escape', async () => {
    const { user } = setup();
    const dialog = await openEditProfile(user);
    for (let i = 0; i < 8; i += 1) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('saves the trimmed name with the busy label, toasts and closes', async () => {
    const pending = deferred();
    const saved: Array<string | null> = [];
    const { user } = setup({
      onSaveDisplayName: (name) => {
        saved.push(name);
        return pending.promise;
      },
    });
    const dialog = await openEditProfile(user);
    const field = within(dialog).getByLabelText('Display Name');
    await user.clear(field);
    await user.type(field, '  Ada Lovelace ');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    expect(within(dialog).getByRole('button', { name: 'Saving...' })).toBeDisabled();
    expect(saved).toEqual(['Ada Lovelace']);
    pending.resolve();
    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    expect(screen.getByText('Your profile has been updated successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('saves an emptied name as null', async () => {
    const { user, events } = setup();
    const dialog = await openEditProfile(user);
    await user.clear(within(dialog).getByLabelText('Display Name'));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(events).toEqual(['save:null']));
  });

  it('stays open with Error updating profile when saving fails', async () => {
    const { user } = setup({ onSaveDisplayName: () => Promise.reject(new Error('permission denied')) });
    const dialog = await openEditProfile(user);
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Error updating profile')).toBeInTheDocument();
    expect(screen.getByText('permission denied')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit Profile' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save Changes' })).toBeEnabled();
  });

  it('refuses a file over 2MB', async () => {
    const { user, events } = setup();
    const dialog = await openEditProfile(user);
    await user.upload(within(dialog).getByLabelText('Profile picture'), image('big.png', 2 * 1024 * 1024 + 1));
    expect(await screen.findByText('File too large')).toBeInTheDocument();
    expect(screen.getByText('Please upload an image smaller than 2MB')).toBeInTheDocument();
    expect(events).toEqual([]);
  });

  it('refuses a file that is not an image', async () => {
    // applyAccept off: a person can pick "All files" in the browser's chooser.
    const { user, events } = setup({}, { applyAccept: false });
    const dialog = await openEditProfile(user);
    await user.upload(within(dialog).getByLabelText('Profile picture'), image('notes.pdf', 100, 'application/pdf'));
    expect(await screen.findByText('Invalid file type')).toBeInTheDocument();
    expect(screen.getByText('Please upload an image file')).toBeInTheDocument();
    expect(events).toEqual([]);
  });

  it('offers only the image types the avatar storage takes, and refuses others in plain words', async () => {
    // applyAccept off: a person can pick "All files" in the browser's chooser.
    const { user, events } = setup({}, { applyAccept: false });
    const dialog = await openEditProfile(user);
    const input = within(dialog).getByLabelText('Profile picture');
    expect(input).toHaveAttribute('accept', 'image/png,image/jpeg,image/webp,image/gif');
    expect(input).toHaveAccessibleDescription('A PNG, JPEG, WebP or GIF image up to 2MB.');

    await user.upload(input, image('IMG_0001.heic', 100, 'image/heic'));
    expect(await screen.findByText('Invalid file type')).toBeInTheDocument();
    expect(screen.getByText('Please upload a PNG, JPEG, WebP or GIF image')).toBeInTheDocument();
    expect(within(dialog).queryByRole('img', { name: 'Preview of your new profile picture' })).not.toBeInTheDocument();

    // A JPEG named .jfif is a JPEG: it is taken.
    await user.upload(input, image('me.jfif', 100, 'image/jpeg'));
    expect(within(dialog).getByRole('img', { name: 'Preview of your new profile picture' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Avatar updated')).toBeInTheDocument();
    expect(events).toEqual(['upload:me.jfif']);
  });
});

describe('Edit Profile: a chosen picture is a preview until Save Changes', () => {
  let made: string[];
  let revoked: string[];
  beforeEach(() => {
    made = [];
    revoked = [];
    // jsdom cannot make object URLs for its Files; these stand in and record what is freed.
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => {
      const url = `blob:preview-${made.length + 1}`;
      made.push(url);
      return url;
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url) => void revoked.push(url));
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows the chosen picture as a preview, names it, and uploads nothing', async () => {
    const { user, events } = setup({ avatarUrl: 'https://cdn.test/u1/avatar.png?v=1' });
    const dialog = await openEditProfile(user);
    expect(within(dialog).getByRole('img', { name: 'Your current profile picture' })).toHaveAttribute(
      'src',
      'https://cdn.test/u1/avatar.png?v=1',
    );
    const input = within(dialog).getByLabelText('Profile picture');
    await user.upload(input, image('me.png', 1024));

    expect(within(dialog).getByRole('img', { name: 'Preview of your new profile picture' })).toHaveAttribute(
      'src',
      'blob:preview-1',
    );
    expect(within(dialog).getByRole('status')).toHaveTextContent(
      'New picture: me.png. It is saved when you press Save Changes.',
    );
    expect(input).toHaveAccessibleDescription(
      'A PNG, JPEG, WebP or GIF image up to 2MB. New picture: me.png. It is saved when you press Save Changes.',
    );
    expect(input).toHaveFocus();
    expect(events).toEqual([]);
  });

  it('frees the preview when another picture replaces it and when the dialog closes', async () => {
    const { user } = setup();
    const dialog = await openEditProfile(user);
    const input = within(dialog).getByLabelText('Profile picture');
    await user.upload(input, image('one.png', 10));
    await user.upload(input, image('two.png', 10));
    expect(revoked).toEqual(['blob:preview-1']);
    expect(within(dialog).getByRole('img', { name: 'Preview of your new profile picture' })).toHaveAttribute(
      'src',
      'blob:preview-2',
    );

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(revoked).toEqual(['blob:preview-1', 'blob:preview-2']);
  });

  it('drops the chosen picture when a refused file is picked after it', async () => {
    const { user } = setup();
    const dialog = await openEditProfile(user);
    const input = within(dialog).getByLabelText('Profile picture');
    await user.upload(input, image('me.png', 10));
    await user.upload(input, image('big.png', 2 * 1024 * 1024 + 1));
    expect(await screen.findByText('File too large')).toBeInTheDocument();
    expect(within(dialog).queryByRole('img', { name: 'Preview of your new profile picture' })).not.toBeInTheDocument();
    expect(revoked).toEqual(['blob:preview-1']);
  });

  it('Cancel discards the chosen picture: nothing is uploaded, and reopening starts without it', async () => {
    const { user, events } = setup();
    const dialog = await openEditProfile(user);
    await user.upload(within(dialog).getByLabelText('Profile picture'), image('me.png', 10));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(events).toEqual([]);
    expect(revoked).toEqual(['blob:preview-1']);

    const again = await openEditProfile(user);
    expect(within(again).queryByRole('img', { name: 'Preview of your new profile picture' })).not.toBeInTheDocument();
    await user.click(within(again).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(events).toEqual(['save:Grace Hopper']));
  });

  it('Save Changes uploads (Uploading...), then saves the name (Saving...), then says both were updated', async () => {
    const upload = deferred();
    const save = deferred();
    const calls: string[] = [];
    const { user } = setup({
      onUploadAvatar: (file) => {
        calls.push(`upload:${file.name}`);
        return upload.promise;
      },
      onSaveDisplayName: (name) => {
        calls.push(`save:${name}`);
        return save.promise;
      },
    });
    const dialog = await openEditProfile(user);
    const input = within(dialog).getByLabelText('Profile picture');
    await user.upload(input, image('me.png', 1024));
    await user.clear(within(dialog).getByLabelText('Display Name'));
    await user.type(within(dialog).getByLabelText('Display Name'), 'Ada Lovelace');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    expect(within(dialog).getByRole('button', { name: 'Uploading...' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(input).toBeDisabled();
    expect(calls).toEqual(['upload:me.png']);
    // A save under way cannot be dismissed as if Cancel could undo it.
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Edit Profile' })).toBeInTheDocument();

    upload.resolve();
    expect(await within(dialog).findByRole('button', { name: 'Saving...' })).toBeDisabled();
    expect(calls).toEqual(['upload:me.png', 'save:Ada Lovelace']);

    save.resolve();
    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    expect(
      screen.getByText('Your profile picture and display name have been updated successfully'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('with only a new picture, uploads it and says Avatar updated (the name is not rewritten)', async () => {
    const upload = deferred();
    const { user, events } = setup({
      onUploadAvatar: (file) => {
        events.push(`upload:${file.name}`);
        return upload.promise;
      },
    });
    const dialog = await openEditProfile(user);
    await user.upload(within(dialog).getByLabelText('Profile picture'), image('me.png', 1024));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(within(dialog).getByRole('button', { name: 'Uploading...' })).toBeDisabled();
    upload.resolve();
    expect(await screen.findByText('Avatar updated')).toBeInTheDocument();
    expect(screen.getByText('Your profile picture has been updated successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(events).toEqual(['upload:me.png']);
  });

  it('when the upload fails: Error uploading avatar, the name is not saved, the picture stays chosen', async () => {
    const { user, events } = setup({
      onUploadAvatar: () => Promise.reject(new Error('The object exceeded the maximum allowed size')),
    });
    const dialog = await openEditProfile(user);
    await user.upload(within(dialog).getByLabelText('Profile picture'), image('me.png', 1024));
    await user.type(within(dialog).getByLabelText('Display Name'), ' Jr');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Error uploading avatar')).toBeInTheDocument();
    expect(
      screen.getByText('The object exceeded the maximum allowed size. Nothing was saved; you can try again.'),
    ).toBeInTheDocument();
    expect(events).toEqual([]);
    expect(within(dialog).getByRole('img', { name: 'Preview of your new profile picture' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save Changes' })).toBeEnabled();
  });

  it('when the picture is saved but the name is not: says so plainly, and the next Save only retries the name', async () => {
    let failName = true;
    const { user, events } = setup({
      onSaveDisplayName: async (name) => {
        if (failName) throw new Error('permission denied');
        events.push(`save:${name}`);
      },
    });
    const dialog = await openEditProfile(user);
    await user.upload(within(dialog).getByLabelText('Profile picture'), image('me.png', 1024));
    await user.type(within(dialog).getByLabelText('Display Name'), ' Jr');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Error updating profile')).toBeInTheDocument();
    expect(
      screen.getByText('Your new picture was saved, but your display name was not: permission denied'),
    ).toBeInTheDocument();
    expect(events).toEqual(['upload:me.png']);
    expect(within(dialog).getByLabelText('Display Name')).toHaveValue('Grace Hopper Jr');
    expect(within(dialog).queryByRole('img', { name: 'Preview of your new profile picture' })).not.toBeInTheDocument();

    failName = false;
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    expect(events).toEqual(['upload:me.png', 'save:Grace Hopper Jr']);
  });
});

describe('AccountMenuView while the profile is unknown', () => {
  it('says it is loading, never No name set, and keeps Edit Profile shut', async () => {
    const { user } = setup({ profile: { status: 'loading' } });
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Loading your profile...')).toBeInTheDocument();
    expect(within(menu).queryByText('No name set')).not.toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Edit Profile' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(menu).queryByRole('menuitem', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('says it could not load, offers Retry, never No name set, and keeps Edit Profile shut', async () => {
    const { user, events } = setup({ profile: { status: 'error' } });
    // Announced without opening the menu.
    expect(screen.getByRole('status')).toHaveTextContent("Couldn't load your profile");
    const trigger = screen.getByRole('button', { name: 'Account menu' });
    expect(trigger).toHaveTextContent('G');

    await user.click(trigger);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText("Couldn't load your profile")).toBeInTheDocument();
    expect(within(menu).getByText('grace@example.com')).toBeInTheDocument();
    expect(within(menu).queryByText('No name set')).not.toBeInTheDocument();
    const edit = within(menu).getByRole('menuitem', { name: 'Edit Profile' });
    expect(edit).toHaveAttribute('aria-disabled', 'true');
    await user.click(edit);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(within(menu).getByRole('menuitem', { name: 'Retry' }));
    expect(events).toEqual(['retry']);
  });

  it('keeps the last good name when a refresh fails, says so, and offers Retry', async () => {
    const { user, events } = setup({
      profile: { status: 'ready', displayName: 'Grace Hopper', avatarUrl: null, refreshFailed: true },
    });
    expect(screen.getByRole('button', { name: 'Account menu' })).toHaveTextContent('GH');
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(menu).getByText("Couldn't refresh your profile")).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Edit Profile' })).not.toHaveAttribute('aria-disabled');
    await user.click(within(menu).getByRole('menuitem', { name: 'Retry' }));
    expect(events).toEqual(['retry']);
  });

  it('offers no Retry when the profile loaded', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).queryByRole('menuitem', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('');
  });

  it('downloads the data from the menu, with a busy toast and then what the file holds', async () => {
    const pending = deferred();
    const { user, events } = setup({ onDownloadData: () => pending.promise.then(() => void events.push('download')) });
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Download my data' }));
    expect(await screen.findByText('Preparing your data...')).toBeInTheDocument();
    pending.resolve();
    expect(await screen.findByText('Your data is downloaded')).toBeInTheDocument();
    expect(events).toEqual(['download']);
  });

  it('links to the privacy page', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    expect(await screen.findByRole('menuitem', { name: 'Your privacy' })).toHaveAttribute('href', '/privacy');
  });

  it('deletes the account only with a password; a refusal is said at the field and nothing is left', async () => {
    let refuse = true;
    const { user, events } = setup({
      onDeleteAccount: async (password) => {
        events.push(`delete:${password}`);
        if (refuse) throw new Error('That password is not right.');
      },
    });
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account' });
    expect(within(dialog).getByText(/purchase records stay in our books/)).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Enter your password to confirm.');
    expect(events).toEqual([]);

    const field = within(dialog).getByLabelText('Your password');
    await user.type(field, 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('That password is not right.');
    expect(field).toHaveFocus();
    expect(events).toEqual(['delete:wrong']);

    refuse = false;
    await user.clear(field);
    await user.type(field, 'right-one');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(events).toEqual(['delete:wrong', 'delete:right-one', 'deleted']));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
