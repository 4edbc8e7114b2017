import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveClusterDir, stopEmbeddedServer } from '@/lib/db/embedded';
import { TEST_DATA_DIR } from '../setup/databases';
import { startNextServer, type NextServer } from '../setup/next-server';

// The embedded database is not a sign of a developer's machine: a small instance on the internet runs it
// too. Such a server, with no DATABASE_URL and WEBHOOKS_ALLOW_PRIVATE_URLS left unset, refuses webhook
// endpoints on loopback and private addresses once its APP_URL is a public address; with a loopback
// APP_URL, as on one's own machine, it takes them.

const KEY = `sk_sandbox_${'PrivateUrls'.repeat(3).slice(0, 32)}`;
const servers: { server: NextServer; dataDir: string }[] = [];

afterAll(async () => {
  for (const { server, dataDir } of servers) {
    server.stop();
    await stopEmbeddedServer(dataDir);
  }
});

/** `next start` on an embedded database of its own, under a fresh DATA_DIR. */
async function startEmbedded(name: string, appUrl?: string): Promise<string> {
  const dataDir = path.join(TEST_DATA_DIR, name);
  await stopEmbeddedServer(dataDir);
  for (const dir of [dataDir, resolveClusterDir(dataDir)]) fs.rmSync(dir, { recursive: true, force: true });
  // an empty WEBHOOKS_ALLOW_PRIVATE_URLS is an unset one (the helper's default is true)
  const env = {
    SANDBOX_API_KEY: KEY,
    WORKER: 'off',
    WEBHOOKS_ALLOW_PRIVATE_URLS: '',
    ...(appUrl ? { APP_URL: appUrl } : {}),
  };
  const server = await startNextServer({ name, dataDir, env });
  servers.push({ server, dataDir });
  return server.url;
}

async function createEndpoint(base: string, url: string) {
  const response = await fetch(`${base}/v1/webhook-endpoints`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${KEY}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': crypto.randomUUID(),
    },
    body: JSON.stringify({ url, events: ['*'] }),
  });
  return { status: response.status, body: await response.json() };
}

describe('an embedded-database server whose APP_URL is public', () => {
  it('refuses loopback and private webhook URLs, and takes public ones', async () => {
    const base = await startEmbedded('embedded-public-app-url', 'https://pay.example.com');
    for (const url of [
      'http://127.0.0.1:4000/hooks',
      'http://localhost:4000/hooks',
      'http://10.0.0.8/hooks',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/hooks',
    ]) {
      const response = await createEndpoint(base, url);
      expect(response.status, url).toBe(400);
      expect(response.body.error, url).toMatchObject({
        code: 'parameter_invalid',
        param: 'url',
        message: expect.stringMatching(/non-public address/),
      });
    }
    expect((await createEndpoint(base, 'http://93.184.216.34/hooks')).status).toBe(201);
  }, 120_000);
});

describe('an embedded-database server whose APP_URL is a loopback address', () => {
  it('takes a webhook URL on this machine', async () => {
    // the helper's APP_URL: http://127.0.0.1:<port>
    const base = await startEmbedded('embedded-loopback-app-url');
    const response = await createEndpoint(base, 'http://127.0.0.1:4000/hooks');
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  }, 120_000);
});
