import { Toaster as SonnerToaster } from 'sonner';

/** Toasts for every success and failure message of the spec; titles plus descriptions. */
export function Toaster() {
  return <SonnerToaster position="top-center" richColors closeButton toastOptions={{ duration: 5000 }} />;
}
