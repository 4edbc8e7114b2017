import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import type { TestProject } from 'vitest/node';
import { createTestDatabase, TEST_DATA_DIR } from './databases';

// Starts the production build (`next build` first, as `npm test` does) on a free port, with its own
// database and a fast sandbox provider, for the API tests to call over real HTTP.

let server: ChildProcess | undefined;

export default async function setup(project: TestProject) {
  const distDir = process.env.NEXT_DIST_DIR || '.next';
  if (!fs.existsSync(`${distDir}/BUILD_ID`)) throw new Error('No production build: run `npx next build` (npm test does) first');
  const databaseUrl = await createTestDatabase(project.getProvidedContext().adminUrl, 'api');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  fs.mkdirSync(TEST_DATA_DIR, { recursive: true });
  const log = fs.createWriteStream(`${TEST_DATA_DIR}/api-server.log`);
  server = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', '127.0.0.1'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      DATA_DIR: TEST_DATA_DIR,
      APP_URL: url,
      REFUND_PROCESSING_DELAY_MS: '300',
      WEBHOOK_RETRY_SCALE: '0.001',
      WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);
  await waitForServer(url);
  project.provide('serverUrl', url);
  project.provide('serverDatabaseUrl', databaseUrl);
  return async () => {
    server?.kill('SIGTERM');
  };
}

async function waitForServer(url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server?.exitCode !== null && server?.exitCode !== undefined) throw new Error(`next start exited with ${server.exitCode}; see ${TEST_DATA_DIR}/api-server.log`);
    try {
      const response = await fetch(`${url}/v1/payments`);
      if (response.status === 401) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`next start did not answer within 60 s; see ${TEST_DATA_DIR}/api-server.log`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
