import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { findResourceCard, resourceFolder } from '../src/content/resources';
import { admin, expect, signInAs, test } from './fixtures';

// The roadmap card, not the masterclass: e2e/media.spec.ts counts the masterclass's videos
// ("0 of 1 watched") while this test's upload may be there.
const card = findResourceCard('publishing-roadmap')!;

/**
 * A 60 MB faststart MP4: the stand-in's seeded masterclass video (real H.264 and AAC, its index
 * first; packages/supabase-stand-in/media/README.md) with a `free` box of padding after its
 * media, as some encoders leave. Every top-level box is well formed.
 */
async function sixtyMegabyteVideo(path: string): Promise<number> {
  const video = await readFile('packages/supabase-stand-in/media/masterclass-welcome.mp4');
  const padding = Buffer.alloc(60 * 1024 * 1024);
  padding.writeUInt32BE(padding.length, 0);
  padding.write('free', 4, 'latin1');
  await writeFile(path, Buffer.concat([video, padding]));
  return video.length + padding.length;
}

test('a 60 MB video goes up by resumable upload and survives a dropped connection', async ({
  page,
  makeUser,
}, testInfo) => {
  test.setTimeout(120_000);
  const staff = await makeUser({ staff: true });
  const name = `lesson-${randomUUID().slice(0, 8)}.mp4`;
  const file = testInfo.outputPath(name);
  const size = await sixtyMegabyteVideo(file);

  // The third chunk is held, and lost when the connection drops under it.
  let chunks = 0;
  let reached!: () => void;
  const atThirdChunk = new Promise<void>((resolve) => (reached = resolve));
  let drop!: () => void;
  const dropped = new Promise<void>((resolve) => (drop = resolve));
  await page.route('**/storage/v1/upload/resumable/**', async (route) => {
    if (route.request().method() !== 'PATCH' || ++chunks !== 3) return route.continue();
    reached();
    await dropped;
    return route.abort('internetdisconnected');
  });

  await signInAs(page, staff);
  await page.goto('/admin-upload');
  await page.getByLabel('Resource', { exact: true }).selectOption(card.slug);
  await page.getByLabel('File', { exact: true }).setInputFiles(file);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();

  await atThirdChunk;
  const bar = page.getByRole('progressbar', { name: 'Upload progress' });
  const before = Number(await bar.getAttribute('aria-valuenow'));
  expect(before).toBeGreaterThan(0);
  expect(before).toBeLessThan(100);
  await page.context().setOffline(true);
  drop();
  await expect(page.getByRole('status').filter({ hasText: 'Connection lost' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel upload' })).toBeVisible();

  await page.context().setOffline(false);
  await expect(page.getByText('Success!')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(`${name} has been uploaded successfully.`)).toBeVisible();

  const { data } = await admin.storage.from('resources').list(resourceFolder(card), { search: name });
  expect(data?.[0]?.metadata).toMatchObject({ size, mimetype: 'video/mp4' });
  await admin.storage.from('resources').remove([`${resourceFolder(card)}/${name}`]);
});

test('an MP4 with its index at the end is refused in words before any byte is sent', async ({ page, makeUser }) => {
  const staff = await makeUser({ staff: true });
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/storage/v1/upload') || request.url().includes('/storage/v1/object/resources'))
      sent.push(request.url());
  });
  await signInAs(page, staff);
  await page.goto('/admin-upload');
  await page.getByLabel('Resource', { exact: true }).selectOption(card.slug);
  // Made by ffmpeg without +faststart (src/features/staff/lib/media-fixtures/README.md).
  await page
    .getByLabel('File', { exact: true })
    .setInputFiles('src/features/staff/lib/media-fixtures/ffmpeg/h264-aac-moov-at-end.mp4');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'ffmpeg -i in.mp4 -c copy -movflags +faststart out.mp4' });
  await expect(refusal).toBeVisible();
  await expect(refusal).toContainText('index');
  expect(sent).toEqual([]);
});
