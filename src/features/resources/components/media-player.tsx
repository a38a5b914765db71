import { useCallback, useEffect, useEffectEvent, useId, useRef, useState, type RefObject } from 'react';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/error-message';
import type { PlayLink } from '../api/media';
import { formatTime, PLAYBACK_RATES, spokenTime, type MediaItem, type PlaybackRate } from '../lib/media-progress';

/** How often the place is saved while playing, besides on pause, at the end and on leaving. */
export const SAVE_EVERY_MS = 15_000;
const SKIP_SECONDS = 15;

export type MediaPlayerProps = {
  item: MediaItem;
  /** The card's title: the album on a phone's lock screen. */
  cardTitle: string;
  /** Where to start (the member's place, from any device). */
  startAt: number;
  rate: PlaybackRate;
  onRateChange: (rate: PlaybackRate) => void;
  /** A fresh short-lived link to the file (the download function), asked again when one ends. */
  getLink: (path: string) => Promise<PlayLink>;
  /** Saves the member's place. */
  onProgress: (path: string, position: number, duration: number) => Promise<void>;
  /** Saves the place as the page goes away (must not wait for an answer). */
  onLeave: (path: string, position: number, duration: number) => void;
  onClose: () => void;
};

type Media = HTMLAudioElement | HTMLVideoElement;

/**
 * The member's player: native <audio>/<video> with the page's own controls (buttons, a range
 * and a select, so a keyboard and a screen reader reach every one), captions drawn under the
 * picture, the lock screen's title and buttons through the Media Session API, and the place
 * saved as it plays. Loaded in its own chunk, only when a member presses Play.
 */
export default function MediaPlayer(props: MediaPlayerProps) {
  const { item, rate } = props;
  const mediaRef = useRef<Media | null>(null);
  const link = useMediaLink(mediaRef, item.path, props.startAt, props.getLink);
  const clock = useClock(mediaRef, link.src);
  usePlaceSaving(mediaRef, item.path, props.onProgress, props.onLeave);
  useMediaSession(mediaRef, item.title, props.cardTitle);
  const captions = useCaptions(mediaRef, item.captionsPath, props.getLink);
  // Last, so the place is saved (above) before the element lets go of the file.
  useStopOnClose(mediaRef);

  useEffect(() => {
    if (mediaRef.current) mediaRef.current.playbackRate = rate;
  }, [rate, link.src]);

  const mediaProps = {
    src: link.src ?? undefined,
    preload: 'metadata',
    playsInline: true,
    onLoadedMetadata: () => {
      if (mediaRef.current) mediaRef.current.playbackRate = rate;
      link.onLoadedMetadata();
    },
    onError: link.onError,
  } as const;

  return (
    <section aria-label={`Player: ${item.title}`} className="border-navy-100 flex flex-col gap-3 rounded-lg border p-3">
      <div className="flex items-start justify-between gap-2">
        <p className="text-navy-900 font-semibold break-words">{item.title}</p>
        <Button variant="ghost" size="sm" onClick={props.onClose} aria-label={`Close the player for ${item.title}`}>
          Close
        </Button>
      </div>
      {item.kind === 'video' ? (
        <div>
          {/* The track is there once the video's captions are loaded (a .vtt uploaded beside it). */}
          {/* eslint-disable-next-line jsx-a11y/media-has-caption */}
          <video
            ref={(el) => void (mediaRef.current = el)}
            {...mediaProps}
            className="bg-navy-900 aspect-video w-full rounded"
          >
            {captions.url && <track kind="captions" src={captions.url} srcLang="en" label="English" default />}
          </video>
          {captions.on && captions.cue && (
            <p data-testid="caption" className="bg-navy-900 rounded px-2 py-1 text-center text-sm text-white">
              {captions.cue}
            </p>
          )}
        </div>
      ) : (
        // The audio sessions' words are in the card's listening guide; audio has no caption track.
        // eslint-disable-next-line jsx-a11y/media-has-caption
        <audio ref={(el) => void (mediaRef.current = el)} {...mediaProps} />
      )}
      <PlayerControls
        mediaRef={mediaRef}
        title={item.title}
        clock={clock}
        rate={rate}
        onRateChange={props.onRateChange}
        captions={item.kind === 'video' && captions.url ? captions : null}
      />
      <p role="status" aria-live="polite" className="text-navy-800 text-sm">
        {link.status === 'loading' ? 'Loading…' : ''}
      </p>
      {link.status === 'error' && (
        <div role="alert" className="flex flex-col gap-2 rounded-lg bg-red-50 p-3 text-sm text-red-900">
          <p>Could not play this file: {link.error}</p>
          <Button variant="outline" size="sm" className="self-start" onClick={link.retry}>
            Try again
          </Button>
        </div>
      )}
    </section>
  );
}

/** A closed player stops reading: without this the element goes on downloading the file. */
function useStopOnClose(mediaRef: RefObject<Media | null>) {
  useEffect(() => {
    const media = mediaRef.current;
    return () => {
      // Still in the page: React's development re-run of effects, not a close.
      if (!media || media.isConnected) return;
      media.pause();
      media.removeAttribute('src');
      media.load();
    };
  }, [mediaRef]);
}

type LinkState = {
  src: string | null;
  status: 'loading' | 'ready' | 'error';
  error: string;
  onLoadedMetadata: () => void;
  onError: () => void;
  retry: () => void;
};

/**
 * The file's link, from the download function. When it ends mid-play (Storage refuses the next
 * range), a new one is asked for and the player carries on from the same place, playing if it
 * was. A link that fails at once after a renewal is an error in words, with Try again.
 */
function useMediaLink(
  mediaRef: RefObject<Media | null>,
  path: string,
  startAt: number,
  getLink: (path: string) => Promise<PlayLink>,
): LinkState {
  const [src, setSrc] = useState<string | null>(null);
  const [status, setStatus] = useState<LinkState['status']>('loading');
  const [error, setError] = useState('');
  const resume = useRef({ at: startAt, play: true, renewedAt: 0 });
  const current = useRef<string | null>(null);

  const load = useCallback(() => {
    getLink(path).then(
      (link) => {
        // A link signed again within the same second is the same URL: the element reads it afresh.
        if (link.url === current.current) mediaRef.current?.load();
        current.current = link.url;
        setSrc(link.url);
      },
      (failure: unknown) => {
        setError(errorMessage(failure));
        setStatus('error');
      },
    );
  }, [getLink, path, mediaRef]);

  useEffect(load, [load]);

  const onLoadedMetadata = () => {
    const media = mediaRef.current;
    if (!media) return;
    const { at, play } = resume.current;
    if (at > 0 && at < media.duration) media.currentTime = at;
    setStatus('ready');
    // A browser may refuse to start without a fresh tap (iOS): the Play button stays.
    if (play) void media.play().catch(() => {});
  };

  const onError = () => {
    const media = mediaRef.current;
    if (!media || !src) return;
    const now = Date.now();
    if (now - resume.current.renewedAt < 10_000) {
      setError('the file could not be read.');
      setStatus('error');
      return;
    }
    resume.current = { at: media.currentTime || resume.current.at, play: !media.paused, renewedAt: now };
    setStatus('loading');
    load();
  };

  const retry = () => {
    resume.current = { ...resume.current, renewedAt: 0 };
    setStatus('loading');
    load();
  };

  return { src, status, error, onLoadedMetadata, onError, retry };
}

type Clock = { time: number; duration: number; playing: boolean };

/** The position, length and play state, as the element reports them. */
function useClock(mediaRef: RefObject<Media | null>, src: string | null): Clock {
  const [clock, setClock] = useState<Clock>({ time: 0, duration: 0, playing: false });
  useEffect(() => {
    const media = mediaRef.current;
    if (!media) return;
    const update = () =>
      setClock({
        time: media.currentTime,
        duration: Number.isFinite(media.duration) ? media.duration : 0,
        playing: !media.paused && !media.ended,
      });
    const events = ['timeupdate', 'durationchange', 'loadedmetadata', 'play', 'pause', 'ended', 'seeked'];
    for (const name of events) media.addEventListener(name, update);
    return () => {
      for (const name of events) media.removeEventListener(name, update);
    };
  }, [mediaRef, src]);
  return clock;
}

/**
 * Saves the place every SAVE_EVERY_MS while playing, on pause, at the end, when the player
 * closes, and as the page goes away (hidden or left), so another device starts near it.
 */
function usePlaceSaving(
  mediaRef: RefObject<Media | null>,
  path: string,
  onProgress: MediaPlayerProps['onProgress'],
  onLeave: MediaPlayerProps['onLeave'],
) {
  const saved = useRef({ at: 0, position: -1 });
  const progress = useEffectEvent((position: number, duration: number) => {
    onProgress(path, position, duration).catch(() => {});
  });
  const leaving = useEffectEvent((position: number, duration: number) => onLeave(path, position, duration));

  useEffect(() => {
    const media = mediaRef.current;
    if (!media) return;
    saved.current = { at: Date.now(), position: -1 };
    const place = () =>
      Number.isFinite(media.duration) && media.duration > 0
        ? { position: media.currentTime, duration: media.duration }
        : null;
    const save = () => {
      const now = place();
      if (!now || Math.abs(now.position - saved.current.position) < 0.5) return;
      saved.current = { at: Date.now(), position: now.position };
      progress(now.position, now.duration);
    };
    const saveWhilePlaying = () => {
      if (Date.now() - saved.current.at >= SAVE_EVERY_MS) save();
    };
    const leave = () => {
      const now = place();
      if (now && Math.abs(now.position - saved.current.position) >= 0.5) {
        saved.current = { at: Date.now(), position: now.position };
        leaving(now.position, now.duration);
      }
    };
    const hidden = () => document.visibilityState === 'hidden' && leave();
    media.addEventListener('timeupdate', saveWhilePlaying);
    media.addEventListener('pause', save);
    media.addEventListener('ended', save);
    window.addEventListener('pagehide', leave);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      media.removeEventListener('timeupdate', saveWhilePlaying);
      media.removeEventListener('pause', save);
      media.removeEventListener('ended', save);
      window.removeEventListener('pagehide', leave);
      document.removeEventListener('visibilitychange', hidden);
      save();
    };
  }, [mediaRef, path]);
}

/** A phone's lock screen and headset buttons: the title, play, pause, 15 s back and forward, seek. */
function useMediaSession(mediaRef: RefObject<Media | null>, title: string, album: string) {
  useEffect(() => {
    const media = mediaRef.current;
    if (!media || !('mediaSession' in navigator)) return;
    const session = navigator.mediaSession;
    session.metadata = new MediaMetadata({ title, artist: 'Yes, You Can!', album });
    const actions: [MediaSessionAction, MediaSessionActionHandler][] = [
      ['play', () => void media.play().catch(() => {})],
      ['pause', () => media.pause()],
      ['seekbackward', (details) => skip(media, -(details.seekOffset ?? SKIP_SECONDS))],
      ['seekforward', (details) => skip(media, details.seekOffset ?? SKIP_SECONDS)],
      [
        'seekto',
        (details) => {
          if (details.seekTime !== undefined) media.currentTime = details.seekTime;
        },
      ],
    ];
    for (const [action, handler] of actions) trySetHandler(session, action, handler);
    const position = () => {
      if (!Number.isFinite(media.duration) || media.duration <= 0) return;
      try {
        session.setPositionState({
          duration: media.duration,
          playbackRate: media.playbackRate,
          position: Math.min(media.currentTime, media.duration),
        });
      } catch {
        // A browser without position state still shows the title and buttons.
      }
    };
    media.addEventListener('loadedmetadata', position);
    media.addEventListener('seeked', position);
    media.addEventListener('ratechange', position);
    return () => {
      media.removeEventListener('loadedmetadata', position);
      media.removeEventListener('seeked', position);
      media.removeEventListener('ratechange', position);
      for (const [action] of actions) trySetHandler(session, action, null);
      session.metadata = null;
    };
  }, [mediaRef, title, album]);
}

function trySetHandler(session: MediaSession, action: MediaSessionAction, handler: MediaSessionActionHandler | null) {
  try {
    session.setActionHandler(action, handler);
  } catch {
    // An action this browser does not know.
  }
}

function skip(media: Media, seconds: number) {
  const end = Number.isFinite(media.duration) ? media.duration : Infinity;
  media.currentTime = Math.max(0, Math.min(end, media.currentTime + seconds));
}

type Captions = { url: string | null; cue: string; on: boolean; toggle: () => void };

/**
 * A video's captions: the WebVTT file beside it, fetched through the download function into a
 * local object URL (a <track> needs a same-origin or CORS source), drawn by the page under the
 * picture so they look the same everywhere and can be switched off.
 */
function useCaptions(
  mediaRef: RefObject<Media | null>,
  captionsPath: string | null,
  getLink: (path: string) => Promise<PlayLink>,
): Captions {
  const [url, setUrl] = useState<string | null>(null);
  const [cue, setCue] = useState('');
  const [on, setOn] = useState(true);

  useEffect(() => {
    if (!captionsPath) return;
    let objectUrl: string | null = null;
    let live = true;
    getLink(captionsPath)
      .then((link) => fetch(link.url))
      .then((response) => (response.ok ? response.text() : Promise.reject(new Error(String(response.status)))))
      .then((text) => {
        if (!live) return;
        objectUrl = URL.createObjectURL(new Blob([text], { type: 'text/vtt' }));
        setUrl(objectUrl);
      })
      .catch((error: unknown) => console.error('Could not load the captions', error));
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [captionsPath, getLink]);

  useEffect(() => {
    const track = mediaRef.current?.textTracks[0];
    if (!url || !track) return;
    drawnByThePage(track);
    const show = () => {
      const active = track.activeCues ? Array.from(track.activeCues) : [];
      setCue(active.map((c) => (c as VTTCue).text).join('\n'));
    };
    track.addEventListener('cuechange', show);
    return () => track.removeEventListener('cuechange', show);
  }, [mediaRef, url]);

  return { url, cue, on, toggle: () => setOn((value) => !value) };
}

/** The browser keeps the cues but does not draw them: the page does. */
function drawnByThePage(track: TextTrack) {
  track.mode = 'hidden';
}

function PlayerControls({
  mediaRef,
  title,
  clock,
  rate,
  onRateChange,
  captions,
}: {
  mediaRef: RefObject<Media | null>;
  title: string;
  clock: Clock;
  rate: PlaybackRate;
  onRateChange: (rate: PlaybackRate) => void;
  captions: Captions | null;
}) {
  const speedId = useId();
  const media = () => mediaRef.current;
  const toggle = () => {
    const el = media();
    if (!el) return;
    if (el.paused || el.ended) void el.play().catch(() => {});
    else el.pause();
  };
  const skipBy = (seconds: number) => {
    const el = media();
    if (el) skip(el, seconds);
  };
  return (
    <div className="flex flex-col gap-2">
      <SeekBar mediaRef={mediaRef} clock={clock} />
      <div className="flex flex-wrap items-center gap-2">
        <Button size="sm" onClick={() => skipBy(-SKIP_SECONDS)} aria-label="Back 15 seconds">
          −15 s
        </Button>
        <Button
          size="sm"
          variant="gold"
          onClick={toggle}
          aria-label={clock.playing ? `Pause ${title}` : `Play ${title}`}
        >
          {clock.playing ? 'Pause' : 'Play'}
        </Button>
        <Button size="sm" onClick={() => skipBy(SKIP_SECONDS)} aria-label="Forward 15 seconds">
          +15 s
        </Button>
        <label htmlFor={speedId} className="text-navy-900 text-sm font-semibold">
          Speed
        </label>
        <select
          id={speedId}
          value={rate}
          onChange={(event) => onRateChange(Number(event.currentTarget.value) as PlaybackRate)}
          className="border-navy-100 min-h-9 rounded-lg border bg-white px-2 text-sm"
        >
          {PLAYBACK_RATES.map((option) => (
            <option key={option} value={option}>
              {option}x
            </option>
          ))}
        </select>
        {captions && (
          <Button size="sm" variant="outline" aria-pressed={captions.on} onClick={captions.toggle}>
            Captions
          </Button>
        )}
      </div>
    </div>
  );
}

/**
 * The position as a slider (arrow keys step a second, Page Up / Down further), read out as
 * "1 minute 5 seconds of 1 minute 15 seconds", with the times shown for the eye.
 */
function SeekBar({ mediaRef, clock }: { mediaRef: RefObject<Media | null>; clock: Clock }) {
  // Where the member put the slider, until the element has got there: the slider shows it
  // meanwhile rather than jump back to the old position (and seek back with it).
  const [scrub, setScrub] = useState<number | null>(null);
  useEffect(() => {
    const el = mediaRef.current;
    if (!el) return;
    const arrived = () => setScrub(null);
    el.addEventListener('seeked', arrived);
    return () => el.removeEventListener('seeked', arrived);
  }, [mediaRef]);
  const shown = scrub ?? clock.time;
  return (
    <>
      <input
        type="range"
        aria-label="Position"
        min={0}
        max={Math.max(clock.duration, 0)}
        step={1}
        value={Math.min(shown, clock.duration)}
        aria-valuetext={`${spokenTime(shown)} of ${spokenTime(clock.duration)}`}
        onChange={(event) => {
          const to = Number(event.currentTarget.value);
          setScrub(to);
          const el = mediaRef.current;
          if (el) el.currentTime = to;
        }}
        className="w-full"
      />
      <div className="text-navy-800 flex justify-between text-sm" aria-hidden="true">
        <span>{formatTime(shown)}</span>
        <span>{formatTime(clock.duration)}</span>
      </div>
    </>
  );
}
