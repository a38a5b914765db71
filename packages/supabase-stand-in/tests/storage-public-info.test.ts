// GET /storage/v1/object/info/public/:bucket/* as hosted Storage answers it
// (storage src/http/routes/object/getObjectInfo.ts, a public route: never authenticated): a
// bucket that is missing or not public is NoSuchBucket, a public one looks the object up. The
// smoke check (scripts/checks/smoke.mjs) tells a private bucket from a public one by it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANON_KEY } from '../keys.mjs';
import { startStandIn, type StandIn } from './helpers';

let server: StandIn;
beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: true });
});
afterAll(async () => {
  await server?.close();
});

async function info(bucket: string, name: string) {
  const res = await fetch(`${server.url}/storage/v1/object/info/public/${bucket}/${name}`, {
    headers: { apikey: ANON_KEY },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('GET /object/info/public/:bucket/*', () => {
  it('answers NoSuchBucket for a private bucket, even for an object it holds, and for a missing one', async () => {
    const { rows } = await server.db.query<{ name: string }>(
      `select name from storage.objects where bucket_id = 'resources' limit 1`,
    );
    const existing = rows[0]!.name;
    const noSuchBucket = {
      statusCode: '404',
      code: 'NoSuchBucket',
      error: 'Bucket not found',
      message: 'Bucket not found',
    };
    expect(await info('resources', existing)).toEqual({ status: 400, body: noSuchBucket });
    expect(await info('resources', 'missing.pdf')).toEqual({ status: 400, body: noSuchBucket });
    expect(await info('no-such-bucket', 'x.png')).toEqual({ status: 400, body: noSuchBucket });
  });

  it('looks the object up in a public bucket: Object not found for a missing one, its row for one it holds', async () => {
    expect(await info('avatars', 'missing.png')).toEqual({
      status: 400,
      body: { statusCode: '404', error: 'not_found', message: 'Object not found', code: 'NoSuchKey' },
    });
    await server.db.query(`update storage.buckets set public = true where id = 'resources'`);
    const { rows } = await server.db.query<{ name: string }>(
      `select name from storage.objects where bucket_id = 'resources' limit 1`,
    );
    const found = await info('resources', rows[0]!.name);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ name: rows[0]!.name, bucket_id: 'resources', size: expect.any(Number) });
  });
});
