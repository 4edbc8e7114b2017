import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { createDatabaseIfMissing } from '@/lib/db';
import { ensureEmbeddedServer } from '@/lib/db/embedded';
import { withClient } from '@/lib/db/short-client';
import { freePort } from '@/lib/core/free-port';
import { contextOf } from '@/test/context';

// A production-shaped deployment on one machine: a PostgreSQL server of its own (a second embedded
// server stands in for the production one, reached only through DATABASE_URL), `next start` web
// processes with WORKER=off, and `npm run sandbox -- worker` processes, all sharing that database.

const SCALE_DATA_DIR = path.resolve(process.env.SCALE_DATA_DIR ?? 'data/test-scale');

export type Cluster = {
  databaseUrl: string;
  env: Record<string, string>;
  webs: WebProcess[];
  workers: ChildProcess[];
  startWeb: () => Promise<WebProcess>;
  startWorker: () => ChildProcess;
  stop: () => Promise<void>;
};

export type WebProcess = { url: string; child: ChildProcess };

export async function startCluster(options: {
  webs: number;
  workers: number;
  env?: Record<string, string>;
}): Promise<Cluster> {
  const server = await ensureEmbeddedServer(SCALE_DATA_DIR, () => {});
  const name = `scale_${randomBytes(4).toString('hex')}`;
  await createDatabaseIfMissing(server.adminUrl('postgres'), name);
  const databaseUrl = server.adminUrl(name);
  fs.mkdirSync(SCALE_DATA_DIR, { recursive: true });
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    // each process keeps its secrets in its own folder: only the configured ones may be shared
    API_KEY_PEPPER: randomBytes(32).toString('base64url'),
    NEXTAUTH_SECRET: randomBytes(32).toString('base64url'),
    WORKER: 'off',
    WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_SCALE: '0.001',
    REFUND_PROCESSING_DELAY_MS: '200',
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  const logFile = fs.createWriteStream(path.join(SCALE_DATA_DIR, `${name}.log`));
  const cluster: Cluster = {
    databaseUrl,
    env,
    webs: [],
    workers: [],
    async startWeb() {
      const port = await freePort();
      const child = spawn(
        process.execPath,
        ['node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', '127.0.0.1'],
        {
          env: {
            ...env,
            DATA_DIR: path.join(SCALE_DATA_DIR, `web-${port}`),
            APP_URL: `http://127.0.0.1:${port}`,
          } as unknown as NodeJS.ProcessEnv,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      child.stdout?.pipe(logFile, { end: false });
      child.stderr?.pipe(logFile, { end: false });
      const web = { url: `http://127.0.0.1:${port}`, child };
      await waitUntilReady(web);
      cluster.webs.push(web);
      return web;
    },
    startWorker() {
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/sandbox.ts', 'worker'], {
        env: {
          ...env,
          DATA_DIR: path.join(SCALE_DATA_DIR, `worker-${cluster.workers.length}`),
        } as unknown as NodeJS.ProcessEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.pipe(logFile, { end: false });
      child.stderr?.pipe(logFile, { end: false });
      cluster.workers.push(child);
      return child;
    },
    async stop() {
      const children = [...cluster.webs.map((web) => web.child), ...cluster.workers];
      await Promise.all(children.map(stopChild));
      logFile.end();
    },
  };
  // the web processes migrate at start-up, at the same time: the advisory lock keeps that safe
  await Promise.all(Array.from({ length: options.webs }, () => cluster.startWeb()));
  for (let i = 0; i < options.workers; i++) cluster.startWorker();
  return cluster;
}

async function waitUntilReady(web: WebProcess): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (web.child.exitCode !== null) throw new Error(`next start exited with ${web.child.exitCode}`);
    try {
      if ((await fetch(`${web.url}/readyz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${web.url} was not ready within 90 s`);
}

export function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function query<T extends pg.QueryResultRow>(
  databaseUrl: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  return withClient({ connectionString: databaseUrl }, async (client) => (await client.query<T>(sql, params)).rows);
}

/** Waits for the workers to finish every delivery; returns the event ids that should have arrived. */
export async function waitForAllDeliveries(databaseUrl: string, timeoutMs = 90_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await query<{ event_id: string; status: string }>(
      databaseUrl,
      'SELECT event_id, status::text FROM webhook_deliveries',
    );
    const events = await query<{ id: string }>(databaseUrl, 'SELECT id FROM events');
    const pending = rows.filter((row) => row.status !== 'succeeded');
    if (pending.length === 0 && rows.length === events.length) return rows.map((row) => row.event_id);
    if (Date.now() > deadline)
      throw new Error(`${pending.length} deliveries still pending, ${events.length - rows.length} events without one`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * A merchant on the cluster's database with `keyCount` full-scope keys, and one webhook endpoint for every
 * event pointing at `receiverUrl`. Made through the services, as an operator would, with the cluster's pepper.
 */
export async function createClusterMerchant(
  cluster: Cluster,
  keyCount: number,
  receiverUrl: string,
): Promise<{ merchantId: string; keys: string[] }> {
  process.env.DATABASE_URL = cluster.databaseUrl;
  process.env.API_KEY_PEPPER = cluster.env.API_KEY_PEPPER;
  const { db } = await import('@/lib/db');
  const { createMerchant } = await import('@/lib/merchants/service');
  const { createApiKey } = await import('@/lib/api-keys/service');
  const { SCOPES } = await import('@/lib/api-keys/scopes');
  const { createWebhookEndpoint } = await import('@/lib/webhooks/service');
  const client = await db();
  const merchantId = (await createMerchant(client, { name: 'Cluster Shop', hosts: ['shop.example.com'] })).id;
  const keys: string[] = [];
  for (let i = 0; i < keyCount; i++) keys.push((await createApiKey(contextOf(client, merchantId), [...SCOPES])).key);
  await createWebhookEndpoint(
    contextOf(client, merchantId),
    { url: receiverUrl, events: ['*'] },
    { allowPrivateUrls: true },
  );
  return { merchantId, keys };
}

export async function stopCluster(
  cluster: Cluster | undefined,
  receiver: { close: () => Promise<void> } | undefined,
): Promise<void> {
  await cluster?.stop();
  await receiver?.close();
  const { disconnect } = await import('@/lib/db');
  await disconnect();
}
