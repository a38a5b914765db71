import { useId, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { Button, buttonClasses } from '@/components/ui/button';
import { Field, Form, FormAlert, SubmitButton, useForm, type FieldControlProps } from '@/components/ui/form';
import { RetryButton } from '@/components/ui/retry-button';
import { Input } from '@/components/ui/input';
import { Progress } from '@/components/ui/progress';
import { paths } from '@/config/paths';
import { resourceCards, type ResourceCard } from '@/content/resources';
import { site } from '@/content/site';
import { tierLabel } from '@/content/tiers';
import { secondsLeft, timeLeftText, type ProgressSample } from '../lib/upload-progress';
import { acceptAttribute, checkUploadFile, supportedFormatsText } from '../lib/upload-rules';

function PageShell({ children }: { children: ReactNode }) {
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-2xl flex-col justify-center gap-6 px-4 py-10 sm:px-6">
      {children}
    </main>
  );
}

/** The page's card, named by its heading; `alert` announces the whole card as it appears. */
function PageCard({
  id,
  title,
  alert = false,
  children,
}: {
  id: string;
  title: ReactNode;
  alert?: boolean;
  children: ReactNode;
}) {
  return (
    <section
      role={alert ? 'alert' : undefined}
      aria-labelledby={id}
      className="rounded-xl bg-white p-6 shadow-sm sm:p-8"
    >
      <h1 id={id} className="text-navy-900 font-serif text-3xl font-bold">
        {title}
      </h1>
      {children}
    </section>
  );
}

/** The card's ways on, then Back to Home. */
function PageActions({ children }: { children: ReactNode }) {
  return (
    <div className="mt-6 flex flex-wrap gap-3">
      {children}
      <Link to={paths.home} className={buttonClasses('outline')}>
        Back to Home
      </Link>
    </div>
  );
}

/**
 * What everyone but staff sees: who the page is for, and a way on. `task` names what the
 * page does ("Uploading resources"), `path` is where Sign In comes back to.
 */
export function StaffOnlyView({
  signedIn,
  task = 'Uploading resources',
  path = paths.adminUpload,
}: {
  signedIn: boolean;
  task?: string;
  path?: string;
}) {
  return (
    <PageShell>
      <PageCard id="staff-only-title" title="Staff only">
        <p className="text-navy-800 mt-3">
          {task} is for {site.productName} programme staff. Subscribers find their downloads on the Subscriber Resources
          page.
        </p>
        <p className="text-navy-800 mt-2">
          {signedIn
            ? `Your account does not have staff access. If you think it should, contact ${site.contactEmail}.`
            : 'If you are on the team, sign in with your staff account.'}
        </p>
        <PageActions>
          {!signedIn && (
            <Link to={`${paths.auth}?next=${path}`} className={buttonClasses('gold')}>
              Sign In
            </Link>
          )}
          {signedIn && (
            <Link to={paths.resources} className={buttonClasses('primary')}>
              Subscriber Resources
            </Link>
          )}
        </PageActions>
      </PageCard>
    </PageShell>
  );
}

/** The staff check itself failed: say so and offer a retry, never "staff only". */
export function StaffCheckFailedView({ retry, retrying }: { retry: () => void; retrying: boolean }) {
  return (
    <PageShell>
      <PageCard id="staff-check-title" title="We couldn't check your access" alert>
        <p className="text-navy-800 mt-3">
          Something went wrong while checking whether your account has staff access. Please try again.
        </p>
        <PageActions>
          <RetryButton retry={retry} retrying={retrying} variant="gold" size="md" />
        </PageActions>
      </PageCard>
    </PageShell>
  );
}

export type UploadResourcesViewProps = {
  /**
   * Uploads the file for the card, reporting progress 0..1 (and whether it is waiting for the
   * connection); throws on failure, and when the signal cancels it.
   */
  onUpload: (
    card: ResourceCard,
    file: File,
    onProgress: (fraction: number, reconnecting?: boolean) => void,
    signal: AbortSignal,
  ) => Promise<void>;
  /**
   * Reads the file before anything is sent: why members could not get their copy of it, in
   * words (a PDF that cannot be stamped), or null when it can go.
   */
  checkFile: (file: File) => Promise<string | null>;
};

/** The staff upload page: what it is for, then the form. */
export function UploadResourcesView({ onUpload, checkFile }: UploadResourcesViewProps) {
  return (
    <PageShell>
      <PageCard id="upload-title" title="Upload Resources">
        <p className="text-navy-800 mt-2">
          Files go to the resource card you choose. Members see them on Subscriber Resources once their bundle unlocks
          that card; a file with the same name is replaced.
        </p>
        <UploadForm onUpload={onUpload} checkFile={checkFile} />
      </PageCard>
      <Link to={paths.resources} className={buttonClasses('ghost', 'md', 'self-center')}>
        Go to Subscriber Resources
      </Link>
    </PageShell>
  );
}

const busyWords = { checking: 'Checking the file...', uploading: 'Uploading...' } as const;

/**
 * The upload form: card, file, progress, and the spec's toasts. The file is read first (its
 * check); one members could not be given is refused there, in words, in the form's alert.
 */
function UploadForm({ onUpload, checkFile }: UploadResourcesViewProps) {
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [slug, setSlug] = useState(resourceCards[0]?.slug ?? '');
  const [file, setFile] = useState<File | null>(null);
  const progress = useUploadProgress();
  const form = useForm<keyof typeof busyWords>();
  const card = resourceCards.find((candidate) => candidate.slug === slug) ?? resourceCards[0];

  if (!card) return null;

  async function upload() {
    if (!card) return;
    const problem = checkUploadFile(card, file);
    if (problem || !file) {
      toast.error('Upload failed', { description: problem ?? 'You must select a file to upload.' });
      return;
    }
    // Refused: the form's alert says why (the default onError), and nothing is sent.
    const checked = await form.run(
      'checking',
      async () => {
        const refusal = await checkFile(file);
        if (refusal) throw new Error(refusal);
      },
      { stayBusy: true },
    );
    if (!checked) return;
    const signal = progress.start(file.size);
    const uploaded = await form.run('uploading', () => onUpload(card, file, progress.report, signal), {
      onError: (message) =>
        signal.aborted
          ? toast.info('Upload cancelled', { description: `${file.name} was not uploaded.` })
          : toast.error('Upload failed', { description: message }),
    });
    if (!uploaded) return;
    toast.success('Success!', { description: `${file.name} has been uploaded successfully.` });
    setFile(null);
    if (fileInput.current) fileInput.current.value = '';
  }

  return (
    <Form state={form} onSubmit={upload} className="mt-6 flex flex-col gap-5">
      <Field id={`${id}-card`} label="Resource">
        <CardSelect value={card.slug} disabled={form.isBusy} onChange={setSlug} />
      </Field>
      <Field
        id={`${id}-file`}
        label="File"
        hint={supportedFormatsText(card)}
        hintSize="sm"
        invalid={form.error !== null}
        describedBy={form.error ? `${id}-refused` : undefined}
      >
        <Input
          ref={fileInput}
          type="file"
          accept={acceptAttribute(card)}
          disabled={form.isBusy}
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            form.setError(null);
          }}
          density="compact"
        />
      </Field>
      <FormAlert id={`${id}-refused`} message={form.error} persistent />
      <UploadStatus busy={form.busy} progress={progress} />
      <SubmitButton
        busy={form.isBusy}
        label="Upload"
        busyLabel={form.busy ? busyWords[form.busy] : busyWords.uploading}
        size="lg"
        className="sm:self-start"
      />
    </Form>
  );
}

/** The resource card a file goes to. */
function CardSelect({
  value,
  disabled,
  onChange,
  ...control
}: Partial<FieldControlProps> & { value: string; disabled: boolean; onChange: (slug: string) => void }) {
  return (
    <select
      {...control}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value)}
      className="border-navy-600/60 text-navy-900 min-h-11 w-full rounded-lg border bg-white px-3 py-2 text-base disabled:opacity-70"
    >
      {resourceCards.map((option) => (
        <option key={option.slug} value={option.slug}>
          {option.title} ({tierLabel(option.tier)})
        </option>
      ))}
    </select>
  );
}

/**
 * What the form is doing, announced once ('Checking the file...', 'Uploading...'); the
 * percentage is for the eye: a screen reader reads it from the progress bar on demand instead
 * of at every step.
 */
function UploadStatus({ busy, progress }: { busy: keyof typeof busyWords | null; progress: UploadProgress }) {
  const uploading = busy === 'uploading';
  return (
    <>
      {uploading && <Progress value={progress.percent} label="Upload progress" />}
      <p className="text-navy-800 text-sm font-semibold">
        <span role="status" aria-live="polite">
          {uploading && progress.reconnecting
            ? 'Connection lost. The upload will carry on when it is back...'
            : busy
              ? busyWords[busy]
              : ''}
        </span>
        {uploading && <span aria-hidden="true"> {progress.percent}%</span>}
        {uploading && progress.timeLeft && <span className="font-normal"> · {progress.timeLeft}</span>}
      </p>
      {uploading && (
        <Button variant="outline" className="sm:self-start" onClick={progress.cancel}>
          Cancel upload
        </Button>
      )}
    </>
  );
}

type UploadProgress = {
  percent: number;
  reconnecting: boolean;
  /** "About 3 minutes left", or '' while it cannot be told. */
  timeLeft: string;
  /** Starts measuring an upload of `total` bytes; its signal cancels it. */
  start: (total: number) => AbortSignal;
  report: (fraction: number, reconnecting?: boolean) => void;
  cancel: () => void;
};

/** An upload's progress as the form shows it: the share sent, the time left at the current speed, and Cancel. */
function useUploadProgress(): UploadProgress {
  const [state, setState] = useState({ percent: 0, reconnecting: false, timeLeft: '' });
  const run = useRef<{ total: number; samples: ProgressSample[]; controller: AbortController } | null>(null);
  return {
    ...state,
    start: (total) => {
      const controller = new AbortController();
      run.current = { total, samples: [], controller };
      setState({ percent: 0, reconnecting: false, timeLeft: '' });
      return controller.signal;
    },
    report: (fraction, reconnecting = false) => {
      const current = run.current;
      if (!current) return;
      current.samples = [...current.samples.slice(-200), { at: Date.now(), sent: fraction * current.total }];
      setState({
        percent: Math.round(fraction * 100),
        reconnecting,
        timeLeft: reconnecting ? '' : timeLeftText(secondsLeft(current.samples, current.total)),
      });
    },
    cancel: () => run.current?.controller.abort(),
  };
}
