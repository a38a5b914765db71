import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { toast } from 'sonner';
import { afterEach, describe, expect, it } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import type { ResourceCard } from '@/content/resources';
import { StaffCheckFailedView, StaffOnlyView, UploadResourcesView } from './admin-upload-view';

afterEach(() => {
  toast.dismiss();
});

function renderAt(element: ReactElement) {
  const router = createMemoryRouter(
    [
      {
        path: '/admin-upload',
        element: (
          <>
            <Toaster />
            {element}
          </>
        ),
      },
      { path: '/auth', element: <p>page:/auth</p> },
    ],
    { initialEntries: ['/admin-upload'] },
  );
  render(<RouterProvider router={router} />);
  return { router };
}

/** An upload the test drives by hand: report progress, then finish or fail. */
function controlledUpload() {
  const calls: Array<{ card: ResourceCard; file: File }> = [];
  let progress: (fraction: number, reconnecting?: boolean) => void = () => {};
  let finish: () => void = () => {};
  let fail: (error: Error) => void = () => {};
  let signal: AbortSignal | null = null;
  const onUpload = (
    card: ResourceCard,
    file: File,
    onProgress: (fraction: number, reconnecting?: boolean) => void,
    cancel: AbortSignal,
  ) => {
    calls.push({ card, file });
    progress = onProgress;
    signal = cancel;
    return new Promise<void>((resolve, reject) => {
      finish = resolve;
      fail = reject;
      cancel.addEventListener('abort', () => reject(new Error('The upload was cancelled.')));
    });
  };
  return {
    calls,
    onUpload,
    cancelled: () => signal?.aborted ?? false,
    progress: (fraction: number, reconnecting?: boolean) => progress(fraction, reconnecting),
    finish: () => finish(),
    fail: (error: Error) => fail(error),
  };
}

const pdf = () => new File(['%PDF-1.7'], 'workbook.pdf', { type: 'application/pdf' });

/** A file check that finds nothing wrong. */
const canGo = () => Promise.resolve(null);

/** A file check the test answers by hand. */
function controlledCheck() {
  const checked: string[] = [];
  let answer: (refusal: string | null) => void = () => {};
  const checkFile = (file: File) => {
    checked.push(file.name);
    return new Promise<string | null>((resolve) => {
      answer = resolve;
    });
  };
  return { checked, checkFile, answer: (refusal: string | null) => answer(refusal) };
}

describe('StaffOnlyView', () => {
  it('explains the page to a visitor and offers Sign In back to this page', async () => {
    const { router } = renderAt(<StaffOnlyView signedIn={false} />);
    expect(screen.getByRole('heading', { name: 'Staff only' })).toBeInTheDocument();
    expect(screen.getByText(/Uploading resources is for Yes, You Can! programme staff/)).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Sign In' }));
    expect(await screen.findByText('page:/auth')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?next=/admin-upload');
  });

  it('tells a signed-in member they have no staff access, without a Sign In link', () => {
    renderAt(<StaffOnlyView signedIn />);
    expect(screen.getByRole('heading', { name: 'Staff only' })).toBeInTheDocument();
    expect(screen.getByText(/Your account does not have staff access/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Sign In' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload' })).not.toBeInTheDocument();
  });
});

describe('StaffCheckFailedView', () => {
  it('says the check failed, never "Staff only", and Retry asks again', async () => {
    let retries = 0;
    renderAt(<StaffCheckFailedView retry={() => void (retries += 1)} retrying={false} />);
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading', { name: "We couldn't check your access" })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Staff only' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload' })).not.toBeInTheDocument();
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(retries).toBe(1);
  });

  it('while the retry runs the button says so and does not ask twice', async () => {
    let retries = 0;
    renderAt(<StaffCheckFailedView retry={() => void (retries += 1)} retrying />);
    const button = screen.getByRole('button', { name: 'Retrying...' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    await userEvent.setup().click(button);
    expect(retries).toBe(0);
  });
});

describe('UploadResourcesView', () => {
  it('lists the six cards and follows the chosen card in accept and formats', async () => {
    const user = userEvent.setup();
    renderAt(<UploadResourcesView onUpload={controlledUpload().onUpload} checkFile={canGo} />);
    expect(screen.getByRole('heading', { name: 'Upload Resources' })).toBeInTheDocument();
    const select = screen.getByLabelText('Resource');
    expect(within(select).getAllByRole('option')).toHaveLength(6);
    expect(screen.getByLabelText('File')).toHaveAttribute('accept', '.pdf,.epub,.mobi');
    expect(screen.getByText('Supported formats: PDF, EPUB, MOBI')).toBeInTheDocument();

    await user.selectOptions(select, 'Daily Scripture Audio Library (Foundation Builder)');
    expect(screen.getByLabelText('File')).toHaveAttribute('accept', '.mp3,.m4a,.mp4,.vtt,.pdf');
    expect(screen.getByText(/^Supported formats: .*MP3/)).toBeInTheDocument();

    await user.selectOptions(select, 'masterclass');
    expect(screen.getByText('Supported formats: MP4, M4A, MP3, VTT, PDF, EPUB, MOBI')).toBeInTheDocument();
  });

  it('says a file must be chosen', async () => {
    const upload = controlledUpload();
    const user = userEvent.setup();
    renderAt(<UploadResourcesView onUpload={upload.onUpload} checkFile={canGo} />);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('Upload failed')).toBeInTheDocument();
    expect(screen.getByText('You must select a file to upload.')).toBeInTheDocument();
    expect(upload.calls).toEqual([]);
  });

  it('refuses a format the card does not take', async () => {
    const upload = controlledUpload();
    const user = userEvent.setup({ applyAccept: false });
    renderAt(<UploadResourcesView onUpload={upload.onUpload} checkFile={canGo} />);
    await user.upload(screen.getByLabelText('File'), new File(['x'], 'song.mp3', { type: 'audio/mpeg' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('This resource takes PDF, EPUB, MOBI files only.')).toBeInTheDocument();
    expect(upload.calls).toEqual([]);
  });

  it('refuses a file name storage would refuse, before sending it', async () => {
    const upload = controlledUpload();
    const user = userEvent.setup();
    renderAt(<UploadResourcesView onUpload={upload.onUpload} checkFile={canGo} />);
    await user.upload(
      screen.getByLabelText('File'),
      new File(['%PDF'], 'Chapter #1 – café.pdf', { type: 'application/pdf' }),
    );
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    const shown = (await screen.findByText('Upload failed')).closest('li');
    expect(shown).not.toBeNull();
    expect(
      within(shown as HTMLElement).getByText(
        'File names may use letters, digits, spaces, dots, hyphens and underscores only.',
      ),
    ).toBeInTheDocument();
    expect(upload.calls).toEqual([]);
  });

  it('says when the connection is lost, and Cancel stops the upload', async () => {
    const upload = controlledUpload();
    const user = userEvent.setup();
    renderAt(<UploadResourcesView onUpload={upload.onUpload} checkFile={canGo} />);
    await user.selectOptions(screen.getByLabelText('Resource'), 'worksheets');
    await user.upload(screen.getByLabelText('File'), pdf());
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    upload.progress(0.3, true);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Connection lost. The upload will carry on when it is back...',
    );
    upload.progress(0.35);
    expect(await screen.findByText('35%')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(/^Uploading\.\.\.$/);
    await user.click(screen.getByRole('button', { name: 'Cancel upload' }));
    expect(upload.cancelled()).toBe(true);
    expect(await screen.findByText('Upload cancelled')).toBeInTheDocument();
    expect(screen.queryByText('Upload failed')).not.toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
  });

  it('shows progress while uploading, then Success! and a cleared chooser', async () => {
    const upload = controlledUpload();
    const user = userEvent.setup();
    renderAt(<UploadResourcesView onUpload={upload.onUpload} checkFile={canGo} />);
    // user-event matches option innerHTML (&amp;), so pick by value.
    await user.selectOptions(screen.getByLabelText('Resource'), 'worksheets');
    const input = screen.getByLabelText('File') as HTMLInputElement;
    await user.upload(input, pdf());
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    expect(upload.calls.map(({ card, file }) => [card.slug, file.name])).toEqual([['worksheets', 'workbook.pdf']]);
    expect(screen.getByRole('button', { name: 'Uploading...' })).toBeDisabled();
    expect(input).toBeDisabled();
    expect(screen.getByLabelText('Resource')).toBeDisabled();
    expect(screen.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '0');

    expect(screen.getByRole('status')).toHaveTextContent(/^Uploading\.\.\.$/);
    upload.progress(0.42);
    expect(await screen.findByText('42%')).toBeInTheDocument();
    // The live region says 'Uploading...' once; it does not read every percent aloud.
    expect(screen.getByRole('status')).toHaveTextContent(/^Uploading\.\.\.$/);
    expect(screen.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '42');

    upload.finish();
    expect(await screen.findByText('Success!')).toBeInTheDocument();
    expect(screen.getByText('workbook.pdf has been uploaded successfully.')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(input).toBeEnabled();
    expect(input.files).toHaveLength(0);
    expect(input.value).toBe('');
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();

    // Cleared for real: uploading again asks for a file.
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('You must select a file to upload.')).toBeInTheDocument();
  });

  it('shows Upload failed with the message and keeps the file', async () => {
    const upload = controlledUpload();
    const user = userEvent.setup();
    renderAt(<UploadResourcesView onUpload={upload.onUpload} checkFile={canGo} />);
    const input = screen.getByLabelText('File') as HTMLInputElement;
    await user.upload(input, pdf());
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    upload.fail(new Error('new row violates row-level security policy'));

    expect(await screen.findByText('Upload failed')).toBeInTheDocument();
    expect(screen.getByText('new row violates row-level security policy')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
    expect(input.files?.[0]?.name).toBe('workbook.pdf');
  });

  const refusal =
    'This PDF is password-protected. Export it again without a password (and without permission restrictions), then upload it.';

  it('reads the file first, saying so, and refuses one members could not be given, in words', async () => {
    const upload = controlledUpload();
    const check = controlledCheck();
    const user = userEvent.setup();
    renderAt(<UploadResourcesView onUpload={upload.onUpload} checkFile={check.checkFile} />);
    const input = screen.getByLabelText('File') as HTMLInputElement;
    await user.upload(input, new File(['%PDF-1.4 locked'], 'locked.pdf', { type: 'application/pdf' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    expect(check.checked).toEqual(['locked.pdf']);
    expect(screen.getByRole('button', { name: 'Checking the file...' })).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent(/^Checking the file\.\.\.$/);
    expect(input).toBeDisabled();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();

    check.answer(refusal);
    // Said in the form, announced as it appears, tied to the file field; nothing was sent. The
    // alert region is always there (empty): wait for its words, not for the region.
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(refusal));
    expect(upload.calls).toEqual([]);
    expect(screen.queryByText('Upload failed')).not.toBeInTheDocument();
    expect(input).toBeEnabled();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(expect.stringContaining(refusal));
    expect(input.files?.[0]?.name).toBe('locked.pdf');
    expect(screen.getByRole('status')).toHaveTextContent('');
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
  });

  it('clears the refusal when another file is chosen, and uploads a file that passes', async () => {
    const upload = controlledUpload();
    const check = controlledCheck();
    const user = userEvent.setup();
    renderAt(<UploadResourcesView onUpload={upload.onUpload} checkFile={check.checkFile} />);
    const input = screen.getByLabelText('File') as HTMLInputElement;
    await user.upload(input, new File(['%PDF-1.4 locked'], 'locked.pdf', { type: 'application/pdf' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    check.answer(refusal);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(refusal));

    await user.upload(input, pdf());
    expect(screen.getByRole('alert')).toHaveTextContent('');
    expect(input).not.toHaveAttribute('aria-invalid');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(check.checked).toEqual(['locked.pdf', 'workbook.pdf']);
    check.answer(null);
    expect(await screen.findByRole('button', { name: 'Uploading...' })).toBeDisabled();
    expect(upload.calls.map(({ file }) => file.name)).toEqual(['workbook.pdf']);
    upload.finish();
    expect(await screen.findByText('workbook.pdf has been uploaded successfully.')).toBeInTheDocument();
  });
});
