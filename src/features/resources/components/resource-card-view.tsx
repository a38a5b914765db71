import { useId } from 'react';
import { Link } from 'react-router-dom';
import { Button, buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';
import type { ResourceCard } from '@/content/resources';
import { tierLabel } from '@/content/tiers';
import { cn } from '@/lib/cn';
import type { CardView, FilesState } from '../lib/resource-files';

/**
 * One resource card. Locked cards are faded with a muted palette and greyscale, but their
 * text keeps AA contrast (no opacity on text), and say "Locked" in words, not only colour.
 */
export function ResourceCardView({ card, view, files }: { card: ResourceCard; view: CardView; files?: FilesState }) {
  const titleId = useId();
  const locked = view === 'locked';

  return (
    <article
      aria-labelledby={titleId}
      className={cn(
        'flex h-full flex-col overflow-hidden rounded-xl border shadow-sm',
        locked ? 'border-slate-200 bg-slate-50 grayscale' : 'border-navy-100 bg-white',
      )}
    >
      <div aria-hidden="true" className={cn('h-3 bg-gradient-to-r', card.colour, locked && 'opacity-40')} />
      <div className="flex flex-1 flex-col gap-3 p-5">
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
        <p className={cn('flex-1 text-sm', locked ? 'text-slate-700' : 'text-navy-800')}>{card.description}</p>
        <div className="mt-2">
          <CardAction view={view} files={files} />
        </div>
      </div>
    </article>
  );
}

function CardAction({ view, files }: { view: CardView; files?: FilesState }) {
  switch (view) {
    case 'locked':
      return (
        <Link to={paths.bundles} className={buttonClasses('gold', 'md', 'w-full')}>
          Upgrade Bundle to Access
        </Link>
      );
    case 'loading':
      return (
        <p role="status" className="text-navy-800 text-sm">
          Loading files...
        </p>
      );
    case 'error':
      return (
        <div role="alert" className="flex flex-col gap-2 rounded-lg bg-red-50 p-3 text-sm text-red-900">
          <p>Could not load the files{files?.status === 'error' ? `: ${files.message}` : '.'}</p>
          {files?.status === 'error' && (
            <Button variant="outline" size="sm" className="self-start" onClick={files.retry}>
              Try again
            </Button>
          )}
        </div>
      );
    case 'coming-soon':
      return (
        <Button variant="outline" disabled className="w-full">
          Coming soon
        </Button>
      );
    case 'files':
      return (
        <ul className="flex flex-col gap-2">
          {files?.status === 'ready' &&
            files.files.map((file) => (
              <li key={file.name}>
                <a
                  href={file.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  download={file.name}
                  className={buttonClasses('primary', 'sm', 'w-full break-all')}
                >
                  <DownloadIcon />
                  <span className="sr-only">Download</span> {file.name}
                </a>
              </li>
            ))}
        </ul>
      );
  }
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
