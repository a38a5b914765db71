import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { routes } from '@/app/router';
import { reloadOnStaleChunk } from '@/lib/reload-on-stale-chunk';
import './index.css';

const router = createBrowserRouter(routes);
reloadOnStaleChunk({
  pendingHref: () => {
    const pending = router.state.navigation.location;
    return pending ? router.createHref(pending) : null;
  },
  onSettled: (callback) => {
    const settled = (state: typeof router.state) =>
      state.initialized && state.navigation.state === 'idle' && !state.errors;
    if (settled(router.state)) callback();
    router.subscribe((state) => {
      if (settled(state)) callback();
    });
  },
});
const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
