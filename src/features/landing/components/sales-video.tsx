import { useEffect, useRef, useState } from 'react';
import { landing } from '@/content/landing';
import { site } from '@/content/site';

const { play, caption, iframeTitle } = landing.hero.video;

/**
 * A click-to-load facade: the page shows a poster drawn in CSS (no image to fetch) and a real
 * button named by its visible text; the video site's iframe (about a megabyte of script, plus
 * its cookies) is inserted only after the visitor asks for it, and then takes focus so
 * keyboard users land in the player.
 */
export function SalesVideo() {
  const [playing, setPlaying] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);

  useEffect(() => {
    if (playing) frame.current?.focus();
  }, [playing]);

  return (
    <div className="bg-navy-800 ring-gold-500/40 relative aspect-video w-full overflow-hidden rounded-2xl shadow-xl ring-1">
      {playing ? (
        <iframe
          ref={frame}
          className="absolute inset-0 size-full"
          // The box is sized by CSS (aspect-video); the attributes give the frame its ratio
          // before any style applies.
          width={560}
          height={315}
          src={`${site.urls.salesVideoEmbed}?autoplay=1&rel=0`}
          title={iframeTitle}
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          allowFullScreen
        />
      ) : (
        <button
          type="button"
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
      )}
    </div>
  );
}
