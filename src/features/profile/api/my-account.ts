import { callAccountFunction } from '@/lib/account-function';

/**
 * The member's own data, as the account function exports it (their session only, served with
 * Cache-Control: no-store), saved as one JSON file.
 */
export async function downloadMyData(): Promise<void> {
  const data = await callAccountFunction<{ exported_at?: string }>('export');
  const day = (data.exported_at ?? new Date().toISOString()).slice(0, 10);
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = `yes-you-can-my-data-${day}.json`;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // After the click has handed the file to the browser.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

/** Deletes the signed-in member's account after the password is checked server-side. */
export async function deleteMyAccount(password: string): Promise<void> {
  await callAccountFunction<{ deleted: boolean }>('delete', { password });
}
