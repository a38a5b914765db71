/**
 * Controls whose action needs the app: buttons and tabs (links work without it). Held until the
 * app runs, by the boot script (src/boot/hold-until-app.ts) and, before it, by the page's inline
 * head script (scripts/build/early-input.mjs, built from this in vite.config.ts). No imports: the Vite
 * config reads it.
 */
export const NEEDS_APP = 'button, input[type="submit"], input[type="button"], [role="button"], [role="tab"]';

/**
 * Links that work without the app except inside a frame (a purchase link: in the
 * marketplace's frame only the app opens the storefront in the top window). In a
 * framed page they are held like NEEDS_APP's controls; elsewhere they are plain links.
 */
export const NEEDS_APP_IN_FRAME = 'a[data-needs-app-in-frame]';
