import { seedSampleFiles } from '../scripts/dev/seed-sample-files.mjs';
import { e2eEnv } from './env';

/**
 * Against a real stack (SUPABASE_URL set) the sample files the resources tests download are not
 * there after `supabase start`: upload them through the Storage API, as `npm run seed:files`
 * does. The stand-in seeds the same files itself when it starts with --reset.
 */
export default async function globalSetup() {
  if (e2eEnv.usingStandIn) return;
  const names = await seedSampleFiles({ url: e2eEnv.supabaseUrl, serviceRoleKey: e2eEnv.serviceRoleKey });
  console.log(`global setup: seeded ${names.length} sample files into ${e2eEnv.supabaseUrl}`);
}
