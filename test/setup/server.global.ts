import type { TestProject } from 'vitest/node';
import { createTestDatabase } from './databases';
import { startNextServer, type NextServer } from './next-server';

// The server the API tests call over real HTTP, with its own database. Every test file sends its unknown
// and malformed keys from 127.0.0.1, so failed authentication is not throttled here; test/api/abuse.test.ts
// starts a server of its own with the default.

let server: NextServer | undefined;

export default async function setup(project: TestProject) {
  const databaseUrl = await createTestDatabase(project.getProvidedContext().adminUrl, 'api');
  server = await startNextServer({
    databaseUrl,
    name: 'api',
    env: { API_AUTH_FAILURES_PER_MINUTE: '1000000', DB_COUNT_ROUND_TRIPS: 'on', EVENT_STREAM_PING_MS: '300' },
  });
  project.provide('serverUrl', server.url);
  project.provide('serverDatabaseUrl', databaseUrl);
  return async () => server?.stop();
}
