import { expect, test } from '@playwright/test';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { preview, type PreviewServer } from 'vite';
import { SERVICE_ROLE_KEY } from '../packages/supabase-stand-in/keys.mjs';
import { startServer } from '../packages/supabase-stand-in/server.mjs';
import { e2eEnv } from './env';
import { runSmoke, type SmokeRun } from './smoke-run';

// The smoke check fails a deployed site for each fault an owner could ship, one at a
// time, and for that reason only (given the service-role key, the functions' secrets too). Each fault gets a site and project of its own, so no other spec
// (running in parallel on the suite's preview and stand-in) can see it: stand-ins started here on
// free ports, and previews of copies of the suite's build (dist/, which the suite's web server
// built) pointed at them, the way a build for another project would be.

type StandIn = Awaited<ReturnType<typeof startServer>>;

const CHECK = {
  csp: "the CSP's connect-src names the build's project",
  resources: 'anon cannot list or read the resources bucket',
  webhook: 'the purchase webhook refuses an unsigned request',
  secrets: 'each Edge Function has the secrets production needs',
  range: 'a signed URL answers a range request with 206',
};

const opened: Array<() => Promise<unknown>> = [];
test.afterAll(async () => {
  for (const close of opened.reverse()) await close();
});

async function standIn(functionEnv: Record<string, string> = {}): Promise<StandIn> {
  const server = await startServer({ port: 0, dataDir: null, quiet: true, seedSampleFiles: false, functionEnv });
  opened.push(() => server.close());
  return server;
}

/** Every text file of a build, recursively. */
async function textFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /(\.(js|html|json|xml|txt)|_headers|_redirects)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * A copy of the suite's build whose every mention of the suite's project (its host, in the JS,
 * the pages and the CSP) names `project` instead; `edit` may change its _headers further.
 */
async function buildFor(project: StandIn, edit: (headers: string) => string = (h) => h): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'smoke-fault-'));
  opened.push(() => rm(dir, { recursive: true, force: true }));
  await cp(path.resolve('dist'), dir, { recursive: true });
  const from = new URL(e2eEnv.supabaseUrl).host;
  const to = new URL(project.url).host;
  for (const file of await textFiles(dir)) {
    const text = await readFile(file, 'utf8');
    if (text.includes(from)) await writeFile(file, text.split(from).join(to));
  }
  const headersFile = path.join(dir, '_headers');
  await writeFile(headersFile, edit(await readFile(headersFile, 'utf8')));
  return dir;
}

/** `vite preview` of `outDir` on a free port, as `npm run preview` serves dist/. */
async function previewOf(outDir: string): Promise<string> {
  const server: PreviewServer = await preview({
    configFile: path.resolve('vite.config.ts'),
    logLevel: 'silent',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  opened.push(() => server.close());
  const { port } = server.httpServer.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

const failed = (run: SmokeRun) => run.lines.filter((line) => !line.ok).map((line) => line.name);
const line = (run: SmokeRun, name: string) => run.lines.find((l) => l.name === name);
/** The smoke run of an owner who gave it the project's service-role key. */
const withKey = { serviceRoleKey: SERVICE_ROLE_KEY };

test('npm run smoke fails for each injected fault, and for that reason only', async () => {
  test.setTimeout(180_000);
  const [healthy, noSecrets, noMail] = await Promise.all([
    standIn(),
    // "supabase secrets set" never run: the webhook has no provider secret.
    standIn({ SHOPIFY_WEBHOOK_SECRET: '', STRIPE_WEBHOOK_SECRET: '' }),
    // The mail API's key and sender never set: invitations go through Auth and its hourly budget.
    standIn({ MAIL_API_KEY: '', MAIL_FROM: '' }),
  ]);

  const site = await previewOf(await buildFor(healthy));
  await test.step('the copied build and its own project pass, so each failure below is the fault', async () => {
    const run = await runSmoke(site, withKey);
    expect(run.output).toContain(`→ project ${healthy.url}`);
    expect(failed(run), run.output).toEqual([]);
    expect(line(run, CHECK.secrets), run.output).toMatchObject({ ok: true, skipped: false });
    expect(line(run, CHECK.secrets)?.detail).toMatch(/^all set: purchase-webhook .*, account, download, count$/);
    expect(line(run, CHECK.range), run.output).toMatchObject({
      ok: true,
      skipped: false,
      detail: '206, Content-Range: bytes 0-99/4096, 100 bytes; test object deleted',
    });
    expect(run.code).toBe(0);
  });

  await test.step('without the service-role key the secrets check says it was skipped, and why', async () => {
    const run = await runSmoke(site);
    expect(failed(run), run.output).toEqual([]);
    expect(line(run, CHECK.secrets), run.output).toMatchObject({
      skipped: true,
      detail: "skipped: SUPABASE_SERVICE_ROLE_KEY is not set, so the functions' secrets were not read",
    });
    expect(line(run, CHECK.range), run.output).toMatchObject({ skipped: true });
    expect(run.code).toBe(0);
  });

  await test.step('a CSP that names another project', async () => {
    const wrongCsp = await previewOf(
      await buildFor(healthy, (headers) =>
        headers.replace(
          /connect-src [^;\n]*/,
          "connect-src 'self' https://another-project.supabase.co wss://another-project.supabase.co",
        ),
      ),
    );
    const run = await runSmoke(wrongCsp);
    expect(failed(run), run.output).toEqual([CHECK.csp]);
    expect(run.output).toContain(`connect-src lacks ${healthy.url} and ws://${new URL(healthy.url).host}`);
    expect(run.code).toBe(1);
  });

  await test.step('a public resources bucket', async () => {
    await healthy.db.query(`update storage.buckets set public = true where id = 'resources'`);
    try {
      const run = await runSmoke(site);
      expect(failed(run), run.output).toEqual([CHECK.resources]);
      expect(run.output).toContain('resources is a public bucket');
      expect(run.code).toBe(1);
    } finally {
      await healthy.db.query(`update storage.buckets set public = false where id = 'resources'`);
    }
  });

  await test.step('the webhook secret unset', async () => {
    const noSecretsSite = await previewOf(await buildFor(noSecrets));
    const run = await runSmoke(noSecretsSite);
    expect(failed(run), run.output).toEqual([CHECK.webhook]);
    expect(run.code).toBe(1);
    // With the key, the webhook names what it lacks (it answers its secrets route while its
    // configuration stops everything else).
    const named = await runSmoke(noSecretsSite, withKey);
    expect(failed(named), named.output).toEqual([CHECK.webhook, CHECK.secrets]);
    expect(line(named, CHECK.secrets)?.detail).toContain(
      'purchase-webhook lacks SHOPIFY_WEBHOOK_SECRET or STRIPE_WEBHOOK_SECRET',
    );
  });

  await test.step('the mail API key and sender unset: fails with the key, naming both', async () => {
    const noMailSite = await previewOf(await buildFor(noMail));
    const run = await runSmoke(noMailSite, withKey);
    expect(failed(run), run.output).toEqual([CHECK.secrets]);
    expect(line(run, CHECK.secrets)?.detail).toContain(
      'purchase-webhook lacks MAIL_API_KEY, MAIL_FROM (without it invitations go through Auth and its hourly e-mail budget)',
    );
    expect(run.code).toBe(1);
  });
});
