import { useEffect, useId, useRef, useState } from 'react';
import { loadFrame } from '@/lib/swap';
import { landing } from '@/content/landing';
import { ebookOffer } from '@/content/site';

const { play, caption, iframeTitle, loading } = landing.hero.video;

/** The slot's content: none, and the same object every render (React compares it by identity). */
const NO_CONTENT = { __html: '' };

/**
 * A click-to-load facade: the page shows a poster drawn in CSS (no image to fetch) and a real
 * button named by its visible text; the video site's iframe (about a megabyte of script, plus
 * its cookies) is inserted only after the visitor asks for it, and then takes focus so
 * keyboard users land in the player.
 *
 * The button names the frame's slot as what it shows (a swap, src/lib/swap.ts):
 * a Play tapped before the app runs is answered by the page itself, which makes the frame,
 * and the app, replaying the tap, finds the player already loading. So the frame is never
 * React's to render (rendering or writing its `src` again would load the player anew):
 * `loadFrame` makes it, once, here or on the page.
 */
export function SalesVideo() {
  const [playing, setPlaying] = useState(false);
  const slot = useRef<HTMLDivElement>(null);
  const id = useId();
  const ids = { frame: `${id}-frame`, play: `${id}-play` };

  useEffect(() => {
    if (!playing || !slot.current) return;
    loadFrame(slot.current)?.focus();
  }, [playing]);

  return (
    <div className="bg-navy-800 ring-gold-500/40 relative aspect-video w-full overflow-hidden rounded-2xl shadow-xl ring-1">
      <button
        type="button"
        id={ids.play}
        hidden={playing}
        data-shows={ids.frame}
        data-hides={ids.play}
        onClick={() => setPlaying(true)}
        className="group from-navy-700 via-navy-800 to-navy-900 text-cream absolute inset-0 flex size-full flex-col items-center justify-center gap-3 bg-gradient-to-br p-4"
      >
        <span
          aria-hidden="true"
          className="bg-gold-400 text-navy-900 flex size-16 items-center justify-center rounded-full shadow-lg transition-transform group-hover:scale-105 sm:size-20"
        >
          <svg viewBox="0 0 24 24" className="ml-1 size-8 sm:size-10" fill="currentColor">
            <path d="M8 5.5v13l11-6.5z" />
          </svg>
        </span>
        {/* The visible words are the button's name (a screen reader says what a voice-control
            user sees); the hidden colon keeps them two phrases. */}
        <span className="text-gold-300 text-sm font-semibold tracking-wide uppercase">{play}</span>
        <span className="sr-only">:</span> <span className="font-serif text-lg sm:text-xl">{caption}</span>
      </button>
      {/* Shown once Play has hidden the button (index.css), behind the frame until the player
          paints over it: the tap was taken, on the page alone as well. */}
      <span aria-hidden="true" className="video-loading text-cream absolute inset-0 items-center justify-center gap-3">
        <span className="border-cream size-6 animate-spin rounded-full border-2 border-r-transparent" />
        {loading}
      </span>
      {/* The frame's slot: React renders it empty and, the content being the same object each
          render, never writes it again, so the frame the page or the effect put there stays. */}
      <div
        ref={slot}
        id={ids.frame}
        hidden={!playing}
        className="absolute inset-0"
        data-frame-src={`${ebookOffer.salesVideoEmbed}?autoplay=1&rel=0`}
        data-frame-title={iframeTitle}
        data-frame-allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
        dangerouslySetInnerHTML={NO_CONTENT}
      />
    </div>
  );
}
