import { useState } from 'react';
import { cn } from '@/lib/cn';

/**
 * The user's picture, or their initials when there is none or it fails to load.
 * Decorative by default: the control around it carries the accessible name.
 */
export function Avatar({
  url,
  initials,
  alt = '',
  size = 'md',
  className,
}: {
  url: string | null;
  initials: string;
  alt?: string;
  /** md: 40 px (menus); lg: 64 px with larger initials (the profile dialog). */
  size?: 'md' | 'lg';
  className?: string;
}) {
  // Remember which URL failed, so a new URL (after an upload) is tried again.
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const showImage = url !== null && url !== failedUrl;

  return (
    <span
      className={cn(
        'bg-navy-800 inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full font-semibold text-white',
        size === 'lg' ? 'size-16 text-xl' : 'size-10',
        className,
      )}
    >
      {showImage ? (
        // Square: the attributes reserve the box before CSS sizes it (size-full of the circle).
        <img
          src={url}
          alt={alt}
          width={64}
          height={64}
          className="size-full object-cover"
          onError={() => setFailedUrl(url)}
        />
      ) : (
        <span aria-hidden={alt === '' ? true : undefined}>{initials}</span>
      )}
    </span>
  );
}
