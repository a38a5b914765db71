import { toast } from 'sonner';
import { afterEach, describe, expect, it } from 'vitest';
import { hasCarriedToasts } from '@/config/auth-storage';
import { carryToasts, takeCarriedToasts } from './toast-handoff';

afterEach(() => {
  toast.dismiss();
  sessionStorage.clear();
});

describe('toasts carried to the next page', () => {
  it('keeps the success and error toasts on screen, in words, and gives them once to the next page', async () => {
    toast.success('Signed out successfully', { description: 'Come back anytime', duration: 5000 });
    toast.error('Error signing out');
    toast.loading('Preparing your data');
    expect(hasCarriedToasts()).toBe(false);
    await carryToasts();
    expect(hasCarriedToasts()).toBe(true);
    expect(takeCarriedToasts()).toEqual([
      { type: 'success', title: 'Signed out successfully', description: 'Come back anytime', duration: 5000 },
      { type: 'error', title: 'Error signing out', description: undefined, duration: undefined },
    ]);
    expect(hasCarriedToasts()).toBe(false);
    expect(takeCarriedToasts()).toEqual([]);
  });

  it('leaves nothing when no toast is on screen, and reads nothing it did not write', async () => {
    await carryToasts();
    expect(hasCarriedToasts()).toBe(false);
    sessionStorage.setItem('yes-you-can-toasts', '[{"type":"script","title":1},"x"]');
    expect(takeCarriedToasts()).toEqual([]);
  });
});
