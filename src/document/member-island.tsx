import { StrictMode, useEffect, type ReactNode } from 'react';
import { createPortal, flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { createPath, Router, type Navigator, type To } from 'react-router-dom';
import { ACCOUNT_CORNER_ATTRIBUTE, AccountCornerContent } from '@/app/account-corner';
import { BUYER_ACCESS_ATTRIBUTE, BuyerAccess } from '@/app/buyer-access';
import { toast, Toaster } from 'sonner';
import { TOASTER_PROPS } from '@/components/ui/toaster';
import { AuthProvider } from '@/lib/auth-provider';
import { carryToasts, takeCarriedToasts } from '@/lib/toast-handoff';

// The one part of a public page that needs React, loaded only for a visitor who may be signed
// in (a stored session, or an auth e-mail's link in the address: src/document/main.ts), or who
// arrives with toasts the page before left (a sign-out's "Signed out successfully"): the
// member's menu in the account corner, on /upgrade their tier in the access box, and the
// toasts. A first-time visitor never downloads it.

const href = (to: To) => (typeof to === 'string' ? to : createPath(to));

/**
 * The router the island's links and navigations use: every one loads a document, as a plain
 * link does (the menu's way to /resources, the sign-out's way home), taking the toasts on
 * screen with it. The public pages have no client-side router; the app's pages start their own.
 */
const documentNavigator: Navigator = {
  createHref: href,
  push: (to) => void carryToasts().then(() => window.location.assign(href(to))),
  replace: (to) => void carryToasts().then(() => window.location.replace(href(to))),
  go: (delta) => window.history.go(delta),
};

/** Shows the toasts the page before left, once the toaster listens (it subscribes in its own effect, which runs first). */
function CarriedToasts() {
  useEffect(() => {
    for (const { type, title, description, duration } of takeCarriedToasts())
      toast[type](title, { description, duration });
  }, []);
  return null;
}

/** Replaces `element`'s prerendered content with `content`, through the island's one root. */
function into(element: Element | null, content: ReactNode) {
  if (!element) return null;
  return { element, portal: createPortal(content, element) };
}

/**
 * Mounts the island: one React root (so one auth state) that renders into the page's account
 * corner and /upgrade's access box through portals. The prerendered content of each is
 * replaced in the same task as the island's first render, so no frame shows neither.
 */
export function mountMemberIsland(doc: Document = document) {
  const parts = [
    into(doc.querySelector(`[${ACCOUNT_CORNER_ATTRIBUTE}]`), <AccountCornerContent />),
    into(doc.querySelector(`[${BUYER_ACCESS_ATTRIBUTE}]`), <BuyerAccess />),
  ].filter((part) => part !== null);
  const container = doc.createElement('div');
  doc.body.append(container);
  const root = createRoot(container);
  flushSync(() => {
    for (const { element } of parts) element.replaceChildren();
    root.render(
      <StrictMode>
        <AuthProvider>
          <Router location={window.location.pathname} navigator={documentNavigator}>
            {parts.map(({ portal }) => portal)}
          </Router>
          <Toaster {...TOASTER_PROPS} />
          <CarriedToasts />
        </AuthProvider>
      </StrictMode>,
    );
  });
}
