import type { TestProject } from 'vitest/node';
import { createTestDatabase } from './databases';
import { startNextServer, type NextServer } from './next-server';

// The server the API tests call over real HTTP, with its own database. Every test file sends its unknown
// and malformed keys from 127.0.0.1, so failed authentication is not throttled here; test/api/abuse.test.ts
// starts a server of its own with the default. Nor are requests: a file sends one after another as fast as
// the machine answers (test/api/authorization.test.ts sends about 300 bodies on one key in 3 s, near a key's
// 100 a second and its burst, and in one run its last ones were rightly refused with 429). The limits are
// checked by abuse.test.ts and the scale tests, each on a server of its own.

let server: NextServer | undefined;

export default async function setup(project: TestProject) {
  const databaseUrl = await createTestDatabase(project.getProvidedContext().adminUrl, 'api');
  server = await startNextServer({
    databaseUrl,
    name: 'api',
    env: {
      API_AUTH_FAILURES_PER_MINUTE: '1000000',
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      DB_COUNT_ROUND_TRIPS: 'on',
      EVENT_STREAM_PING_MS: '300',
    },
  });
  project.provide('serverUrl', server.url);
  project.provide('serverDatabaseUrl', databaseUrl);
  return async () => server?.stop();
}
