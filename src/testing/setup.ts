import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  // sonner keeps toasts in a module-level store; a new <Toaster/> would show old ones.
  toast.dismiss();
  window.localStorage.clear();
});
