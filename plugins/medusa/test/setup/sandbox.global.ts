import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { ensureEmbeddedServer } from '@/lib/db/embedded';
import { freePort } from '@/lib/core/free-port';

// A real sandbox for the provider to call: this repository's production build (`npx next build`, as npm
// test does first) served by `next start` on a free port with its own database, and a second database for
// Medusa, both in the repository's embedded PostgreSQL (data/test, as the root tests use). Or, when
// SANDBOX_BASE_URL, SANDBOX_API_KEY and MEDUSA_DATABASE_URL are set, the sandbox and database they name
// (e.g. one `npx sandbox-payments start` serves).

declare module 'vitest' {
  export interface ProvidedContext {
    sandboxUrl: string;
    apiKey: string;
    medusaDatabaseUrl: string;
  }
}

const REPOSITORY = path.resolve(import.meta.dirname, '..', '..', '..', '..');
const DATA_DIR = path.resolve(REPOSITORY, process.env.TEST_DATA_DIR ?? 'data/test');
const API_KEY = `sk_sandbox_${'Medusa00'.repeat(4)}`;
const PREFIX = 'medusa_plugin_';

export default async function setup(project: TestProject) {
  const { SANDBOX_BASE_URL, SANDBOX_API_KEY, MEDUSA_DATABASE_URL } = process.env;
  if (SANDBOX_BASE_URL && SANDBOX_API_KEY && MEDUSA_DATABASE_URL) {
    project.provide('sandboxUrl', SANDBOX_BASE_URL);
    project.provide('apiKey', SANDBOX_API_KEY);
    project.provide('medusaDatabaseUrl', MEDUSA_DATABASE_URL);
    return;
  }
  const distDir = path.join(REPOSITORY, process.env.NEXT_DIST_DIR || '.next');
  if (!fs.existsSync(path.join(distDir, 'BUILD_ID')))
    throw new Error(`No production build in ${distDir}: run \`npx next build\` at the repository's root first`);
  const embedded = await ensureEmbeddedServer(DATA_DIR, () => {});
  const admin = embedded.adminUrl('postgres');
  const suffix = randomBytes(4).toString('hex');
  const sandboxDatabase = `${PREFIX}sandbox_${suffix}`;
  const medusaDatabase = `${PREFIX}medusa_${suffix}`;
  await withAdmin(admin, async (client) => {
    // what an earlier run cut short left behind
    const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [
      `${PREFIX}%`,
    ]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${sandboxDatabase}`);
    await client.query(`CREATE DATABASE ${medusaDatabase}`);
  });
  const server = await startSandbox(embedded.adminUrl(sandboxDatabase), distDir);
  project.provide('sandboxUrl', server.url);
  project.provide('apiKey', API_KEY);
  project.provide('medusaDatabaseUrl', overTcp(embedded.adminUrl(medusaDatabase)));
  return async () => {
    server.process.kill('SIGTERM');
    await new Promise((resolve) => server.process.once('exit', resolve));
    await withAdmin(admin, async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${sandboxDatabase} WITH (FORCE)`);
      await client.query(`DROP DATABASE IF EXISTS ${medusaDatabase} WITH (FORCE)`);
    });
  };
}

async function startSandbox(databaseUrl: string, distDir: string): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const logPath = path.join(DATA_DIR, 'medusa-plugin-server.log');
  const log = fs.createWriteStream(logPath);
  const child = spawn(
    process.execPath,
    [path.join(REPOSITORY, 'node_modules/next/dist/bin/next'), 'start', '-p', String(port), '-H', '127.0.0.1'],
    {
      cwd: REPOSITORY,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        NEXT_DIST_DIR: path.relative(REPOSITORY, distDir),
        DATABASE_URL: databaseUrl,
        DATA_DIR,
        APP_URL: url,
        SANDBOX_API_KEY: API_KEY,
        REFUND_PROCESSING_DELAY_MS: '300',
        WEBHOOK_RETRY_SCALE: '0.001',
        WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}; see ${logPath}`);
    const ready = await fetch(`${url}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { url, process: child };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGTERM');
  throw new Error(`next start was not ready within 60 s; see ${logPath}`);
}

/** Medusa's ORM reads host and port from the URL itself and drops a `host` parameter naming a socket folder. */
function overTcp(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.delete('host');
  parsed.hostname = '127.0.0.1';
  return parsed.toString();
}

async function withAdmin(url: string, run: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await run(client);
  } finally {
    await client.end();
  }
}
