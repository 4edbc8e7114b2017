import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { TEST_DATA_DIR } from './databases';
import { freePort } from '@/lib/core/free-port';

// A production build (`next build` first, as `npm test` does) served by `next start` on a free port, with
// a fast sandbox provider, for tests to call over real HTTP. `env` adds to or overrides the defaults.

export type NextServer = { url: string; stop: () => void };

/** Without `databaseUrl`, the server starts the embedded database under `dataDir`, as a deployment with no DATABASE_URL does. */
export async function startNextServer(options: {
  databaseUrl?: string;
  dataDir?: string;
  name: string;
  env?: Record<string, string>;
}): Promise<NextServer> {
  const distDir = process.env.NEXT_DIST_DIR || '.next';
  if (!fs.existsSync(`${distDir}/BUILD_ID`))
    throw new Error('No production build: run `npx next build` (npm test does) first');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  fs.mkdirSync(TEST_DATA_DIR, { recursive: true });
  const logPath = path.join(TEST_DATA_DIR, `${options.name}-server.log`);
  // the server writes its log to the file itself: a line it logs while answering a request is in the file
  // by the time the answer arrives (a pipe through this process would land some time later)
  const log = fs.openSync(logPath, 'w');
  // a test file's own database, which its setup puts in process.env, is not the server's
  const { DATABASE_URL: _testDatabase, ...inherited } = process.env;
  const server = spawn(
    process.execPath,
    ['node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', '127.0.0.1'],
    {
      env: {
        ...inherited,
        NODE_ENV: 'production',
        ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
        DATA_DIR: options.dataDir ?? TEST_DATA_DIR,
        APP_URL: url,
        REFUND_PROCESSING_DELAY_MS: '300',
        WEBHOOK_RETRY_SCALE: '0.001',
        WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
        LOG_LEVEL: 'warn',
        ...options.env,
      },
      stdio: ['ignore', log, log],
    },
  );
  fs.closeSync(log);
  await waitForServer(server, url, logPath);
  return { url, stop: () => void server.kill('SIGTERM') };
}

async function waitForServer(server: ChildProcess, url: string, logPath: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}; see ${logPath}`);
    try {
      const response = await fetch(`${url}/v1/payments`);
      if (response.status === 401) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`next start did not answer within 60 s; see ${logPath}`);
}
