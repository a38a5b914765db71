import { useId, useState, type MouseEvent } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { Button, buttonClasses } from '@/components/ui/button';
import { RetryButton } from '@/components/ui/retry-button';
import { paths } from '@/config/paths';
import { unlockOffer } from '@/content/bundles';
import { resourceFolder, type ResourceCard } from '@/content/resources';
import { formatPrice } from '@/content/site';
import { tierLabel, type Tier } from '@/content/tiers';
import { PurchaseLink } from '@/features/purchase';
import { cn } from '@/lib/cn';
import { errorMessage } from '@/lib/error-message';
import { resourceType } from '../../../../supabase/functions/_shared/resource-types';
import { cannotPrepare } from '../lib/download-refused';
import { mediaItems, type MediaItem } from '../lib/media-progress';
import { fileDetails, type CardView, type FilesState, type ResourceFile } from '../lib/resource-files';
import { CardMedia } from './card-media';
import { useMediaControls } from './media-context';

/**
 * Starts a download from the link the download function just signed. It answers with
 * Content-Disposition: attachment, so the browser saves the file and this page stays; no new
 * window is opened after the await, which a popup blocker would stop.
 */
export function downloadInPlace(url: string) {
  window.location.assign(url);
}

/**
 * One resource card. A locked card's content is faded with a muted palette and greyscale,
 * but its text keeps AA contrast (no opacity on text) and says "Locked" in words, not only
 * colour; its call to action stays in full colour and names what unlocks it. Cards take
 * their own height (the list lays them out as columns), so a short card leaves no hole.
 */
export function ResourceCardView({
  card,
  view,
  files,
  onFollowDownload = downloadInPlace,
}: {
  card: ResourceCard;
  view: CardView;
  files?: FilesState;
  /** Follows the link prepared on click (default: `downloadInPlace`). */
  onFollowDownload?: (url: string) => void;
}) {
  const titleId = useId();
  const locked = view === 'locked';

  return (
    <article
      aria-labelledby={titleId}
      className={cn(
        'flex flex-col overflow-hidden rounded-xl border shadow-sm',
        locked ? 'border-slate-200 bg-slate-50' : 'border-navy-100 bg-white',
      )}
    >
      <div aria-hidden="true" className={cn('h-3 bg-gradient-to-r', card.colour, locked && 'opacity-40 grayscale')} />
      <div className="flex flex-col gap-3 p-5">
        <div className={cn('flex flex-col gap-3', locked && 'grayscale')}>
          <div className="flex flex-wrap items-center gap-2">
            <span className="bg-navy-50 text-navy-800 rounded-full px-2.5 py-0.5 text-xs font-semibold">
              {tierLabel(card.tier)}
            </span>
            {locked && (
              <span className="inline-flex items-center gap-1 rounded-full bg-slate-200 px-2.5 py-0.5 text-xs font-semibold text-slate-800">
                <LockIcon /> Locked
              </span>
            )}
          </div>
          <h3 id={titleId} className={cn('font-serif text-xl font-bold', locked ? 'text-slate-700' : 'text-navy-900')}>
            {card.title}
          </h3>
          <p className={cn('text-sm', locked ? 'text-slate-700' : 'text-navy-800')}>{card.description}</p>
        </div>
        <div className="mt-2">
          <CardAction card={card} view={view} files={files} onFollowDownload={onFollowDownload} />
        </div>
      </div>
    </article>
  );
}

/** The purchase that unlocks a locked card, named with its price (from the content module). */
function UnlockLink({ cardTier }: { cardTier: Tier }) {
  const offer = unlockOffer(cardTier);
  const label = `Unlock with ${offer.name} (${formatPrice(offer.price)})`;
  const className = buttonClasses('gold', 'md', 'w-full text-center');
  // The ebook is sold on the storefront; the bundles are compared on /bundles.
  return offer.kind === 'ebook' ? (
    <PurchaseLink href={offer.href} className={className}>
      {label}
    </PurchaseLink>
  ) : (
    <Link to={paths.bundles} className={className}>
      {label}
    </Link>
  );
}

function CardAction({
  card,
  view,
  files,
  onFollowDownload,
}: {
  card: ResourceCard;
  view: CardView;
  files?: FilesState;
  onFollowDownload: (url: string) => void;
}) {
  switch (view) {
    case 'unknown':
      return <p className="text-navy-800 text-sm">Shown once your subscription has loaded.</p>;
    case 'locked':
      return <UnlockLink cardTier={card.tier} />;
    case 'loading':
      return (
        <p role="status" className="text-navy-800 text-sm">
          Loading files...
        </p>
      );
    case 'error':
      return files?.status === 'error' ? (
        <div role="alert" className="flex flex-col gap-2 rounded-lg bg-red-50 p-3 text-sm text-red-900">
          <p>Could not load the files: {files.message}</p>
          <RetryButton
            retry={files.retry}
            retrying={files.retrying ?? false}
            labels={['Try again', 'Trying again...']}
            className="self-start"
          />
        </div>
      ) : null;
    case 'coming-soon':
      return (
        <Button variant="outline" disabled className="w-full">
          Coming soon
        </Button>
      );
    case 'files':
      return files?.status === 'ready' ? (
        <>
          <CardMedia cardTitle={card.title} items={mediaItems(resourceFolder(card), files.files)} />
          <DownloadList
            files={files}
            items={mediaItems(resourceFolder(card), files.files)}
            onFollowDownload={onFollowDownload}
          />
          <RefreshFailed files={files} />
        </>
      ) : null;
  }
}

/** A refresh failed after a good read: the last good links stay, with a quiet note. */
function RefreshFailed({ files }: { files: Extract<FilesState, { status: 'ready' }> }) {
  if (!files.refreshFailed) return null;
  return (
    <div role="status" className="text-navy-800 mt-2 flex flex-col gap-2 text-sm">
      <p>Could not refresh the files just now.</p>
      <RetryButton
        retry={files.refreshFailed.retry}
        retrying={files.refreshFailed.retrying}
        labels={['Try again', 'Trying again...']}
        className="self-start"
      />
    </div>
  );
}

/**
 * One real link per file, to the download function. A click asks the function with the
 * member's session (a plain navigation would carry none): it checks the tier, stamps the
 * member's copy, logs the download and answers with a short-lived link, which is followed.
 * Stamping a large book the first time takes a moment, so the page says so meanwhile. A
 * refusal is said (a toast) and nothing more is asked; one for a file that cannot be prepared
 * also stays under the file.
 */
function DownloadList({
  files,
  items,
  onFollowDownload,
}: {
  files: Extract<FilesState, { status: 'ready' }>;
  /** The card's audio and video, which also play in the page. */
  items: readonly MediaItem[];
  onFollowDownload: (url: string) => void;
}) {
  const media = useMediaControls();
  const playable = new Map(media ? items.map((item) => [item.name, item]) : []);
  // Captions play with their video; a video plays in the page and is not downloaded.
  const shown = files.files.filter((file) => !media || resourceType(file.name)?.kind !== 'captions');
  const [preparing, setPreparing] = useState<ResourceFile | null>(null);
  const [unavailable, setUnavailable] = useState<Partial<Record<string, string>>>({});
  const listId = useId();

  function handleClick(event: MouseEvent<HTMLAnchorElement>, file: ResourceFile) {
    event.preventDefault();
    if (preparing !== null) return; // one is being prepared already
    setPreparing(file);
    files
      .prepare(file.name)
      .then(
        (url) => {
          setUnavailable(({ [file.name]: _, ...rest }) => rest);
          onFollowDownload(url);
        },
        (error: unknown) => {
          toast.error('Download failed', { description: errorMessage(error) });
          const words = cannotPrepare(error);
          if (words) setUnavailable((shown) => ({ ...shown, [file.name]: words }));
        },
      )
      .finally(() => setPreparing(null));
  }

  return (
    <>
      <ul className="flex flex-col gap-2">
        {shown.map((file, index) => {
          const details = fileDetails(file);
          const refused = unavailable[file.name];
          const refusedId = `${listId}-${index}-refused`;
          const item = playable.get(file.name);
          if (item?.kind === 'video') {
            return (
              <li key={file.name}>
                <VideoRow item={item} details={details} />
              </li>
            );
          }
          return (
            <li key={file.name}>
              <div className="flex gap-2">
                <DownloadLink
                  file={file}
                  details={details}
                  busy={preparing?.name === file.name}
                  describedBy={refused ? refusedId : undefined}
                  onClick={(event) => handleClick(event, file)}
                />
                {item && <PlayButton item={item} />}
              </div>
              {refused && (
                <p id={refusedId} className="mt-1 text-sm text-red-800">
                  {refused}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      <p role="status" aria-live="polite" className="text-navy-800 text-sm">
        {preparing !== null ? `Preparing your copy of ${preparing.title}…` : ''}
      </p>
    </>
  );
}

/** One file's link to the download function (a click asks it with the session). */
function DownloadLink({
  file,
  details,
  busy,
  describedBy,
  onClick,
}: {
  file: ResourceFile;
  details: string;
  busy: boolean;
  describedBy: string | undefined;
  onClick: (event: MouseEvent<HTMLAnchorElement>) => void;
}) {
  return (
    <a
      href={file.url}
      target="_blank"
      rel="noopener noreferrer"
      download={file.name}
      aria-label={`Download ${file.title} (${details})`}
      aria-describedby={describedBy}
      aria-busy={busy || undefined}
      onClick={onClick}
      className="border-navy-100 text-navy-900 hover:bg-navy-50 focus-visible:outline-gold-500 flex min-w-0 flex-1 items-start gap-3 rounded-lg border bg-white px-3 py-2 focus-visible:outline-2 focus-visible:outline-offset-2"
    >
      <span className="bg-navy-800 mt-0.5 rounded-md p-1.5 text-white">{busy ? <BusyIcon /> : <DownloadIcon />}</span>
      {/* min-w-0 lets the text wrap inside the flex row; words wrap whole (a word too long for
          the line is the only one allowed to break). */}
      <span className="flex min-w-0 flex-col">
        {/* The space between the lines keeps the visible words apart for whatever reads the
            text: the link's label must contain them ("title details"). */}
        <span className="font-semibold break-words">{file.title}</span>{' '}
        <span className="text-navy-700 text-sm">{details}</span>
      </span>
    </a>
  );
}

/** Opens the card's player on this item. */
function PlayButton({ item, className }: { item: MediaItem; className?: string }) {
  const media = useMediaControls();
  if (!media) return null;
  const open = media.open?.path === item.path;
  return (
    <Button
      size="sm"
      variant="outline"
      className={cn('shrink-0 self-center', className)}
      aria-label={`Play ${item.title}`}
      aria-pressed={open}
      onClick={() => media.setOpen(item)}
    >
      <PlayIcon /> Play
    </Button>
  );
}

/** A video: it plays in the page (no download: nothing is stamped on it, and it is large). */
function VideoRow({ item, details }: { item: MediaItem; details: string }) {
  return (
    <div className="border-navy-100 text-navy-900 flex items-center gap-3 rounded-lg border bg-white px-3 py-2">
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="font-semibold break-words">{item.title}</span>{' '}
        <span className="text-navy-700 text-sm">{details}</span>
      </span>
      <PlayButton item={item} />
    </div>
  );
}

function PlayIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4 shrink-0" fill="currentColor">
      <path d="M8 5v14l11-7z" />
    </svg>
  );
}

function BusyIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="size-4 shrink-0 animate-spin"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <path d="M12 3a9 9 0 1 0 9 9" />
    </svg>
  );
}

function LockIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="2">
      <rect x="5" y="11" width="14" height="10" rx="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </svg>
  );
}

function DownloadIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="size-4 shrink-0"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <path d="M12 3v12m0 0-4-4m4 4 4-4M5 21h14" />
    </svg>
  );
}
