import { lazy, Suspense, useEffect } from 'react';
import { Button } from '@/components/ui/button';
import { cardProgress, resumePosition, type MediaItem } from '../lib/media-progress';
import { useMediaControls } from './media-context';

// The player comes in its own chunk, fetched once a card with audio or video is on the page
// (a members' page only), so a tap on Play waits for no download of code.
const loadPlayer = () => import('./media-player');
const MediaPlayer = lazy(loadPlayer);

/**
 * A card's audio and video: how many the member has finished ("3 of 6 listened"), a button to
 * the latest unfinished one, and the player when one of this card's items is open.
 */
export function CardMedia({ cardTitle, items }: { cardTitle: string; items: readonly MediaItem[] }) {
  const media = useMediaControls();
  const hasMedia = media !== null && items.length > 0;
  const paths = hasMedia
    ? items.flatMap((item) => (item.captionsPath ? [item.path, item.captionsPath] : [item.path])).join('\n')
    : '';
  const preflight = media?.preflight;
  useEffect(() => {
    if (!paths || !preflight) return;
    void loadPlayer().catch(() => {});
    preflight(paths.split('\n'));
  }, [paths, preflight]);
  if (!media || items.length === 0) return null;
  const summary = cardProgress(items, media.progress);
  const open = media.open && items.some((item) => item.path === media.open?.path) ? media.open : null;
  const place = open ? media.progress.find((row) => row.file_name === open.path) : undefined;

  return (
    <div className="mb-3 flex flex-col gap-3">
      {summary && (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-navy-800 text-sm font-semibold">
            {summary.finished} of {summary.total} {summary.verb}
          </p>
          {summary.next && summary.next.item.path !== open?.path && (
            <Button
              size="sm"
              variant="gold"
              aria-label={`${summary.next.started ? 'Continue' : 'Start'}: ${summary.next.item.title}`}
              onClick={() => media.setOpen(summary.next!.item)}
            >
              {summary.next.started ? 'Continue' : 'Start'}
            </Button>
          )}
        </div>
      )}
      {open && (
        <Suspense
          fallback={
            <p role="status" className="text-navy-800 text-sm">
              Loading the player…
            </p>
          }
        >
          <MediaPlayer
            key={open.path}
            item={open}
            cardTitle={cardTitle}
            startAt={resumePosition(place)}
            rate={media.rate}
            onRateChange={media.onRateChange}
            getLink={media.getLink}
            onProgress={media.onProgress}
            onLeave={media.onLeave}
            onClose={() => media.setOpen(null)}
          />
        </Suspense>
      )}
    </div>
  );
}
