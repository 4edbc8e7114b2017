import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { PrismaPg } from '@prisma/adapter-pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createApiKey } from '@/lib/api-keys/service';
import { SCOPES } from '@/lib/api-keys/scopes';
import { PrismaClient } from '@/lib/generated/prisma/client';
import { createMerchant } from '@/lib/merchants/service';
import { createWebhookEndpoint } from '@/lib/webhooks/service';
import { startTestReceiver, type TestReceiver } from '@/test/support/webhook-receiver';
import { createTestDatabase, TEST_DATA_DIR } from '../setup/databases';
import { sessionBody } from '../helpers';
import { freePort } from '@/lib/core/free-port';
import { contextOf } from '@/test/context';

// The outbox survives a crash. A web process with WORKER=off commits a payment (and its events) and is
// killed with SIGKILL before anything was delivered; a worker started afterwards, as its own process,
// delivers them. This web process also runs with WEBHOOKS_ALLOW_PRIVATE_URLS=false, so it shows the
// API refusing private URLs; its endpoint is made through the service, and the worker, which must reach
// the receiver on 127.0.0.1, allows them.

let databaseUrl: string;
let client: PrismaClient;
let receiver: TestReceiver;
let secret: string;
let key: string;
let web: ChildProcess | undefined;
let worker: ChildProcess | undefined;
let baseUrl: string;

const baseEnv = () => ({
  ...process.env,
  NODE_ENV: 'production' as const,
  DATABASE_URL: databaseUrl,
  DATA_DIR: TEST_DATA_DIR,
  WEBHOOK_RETRY_SCALE: '0.001',
  LOG_LEVEL: 'warn',
});

beforeAll(async () => {
  databaseUrl = await createTestDatabase(inject('adminUrl'), 'restart');
  client = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
  const merchant = await createMerchant(client, { name: 'Crash Shop', hosts: ['shop.example.com'] });
  key = (await createApiKey(contextOf(client, merchant.id), [...SCOPES])).key;
  receiver = await startTestReceiver();
  const endpoint = await createWebhookEndpoint(
    contextOf(client, merchant.id),
    { url: receiver.url, events: ['*'] },
    { allowPrivateUrls: true },
  );
  secret = endpoint.secret;

  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const log = fs.createWriteStream(`${TEST_DATA_DIR}/restart-web.log`);
  web = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', '127.0.0.1'], {
    env: { ...baseEnv(), APP_URL: baseUrl, WORKER: 'off', WEBHOOKS_ALLOW_PRIVATE_URLS: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  web.stdout?.pipe(log);
  web.stderr?.pipe(log);
  await waitUntil(
    async () => (await fetch(`${baseUrl}/v1/events`).catch(() => null))?.status === 401,
    60_000,
    'the web process to answer',
  );
});

afterAll(async () => {
  for (const child of [web, worker])
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await receiver?.close();
  await client?.$disconnect();
});

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': crypto.randomUUID(),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe('a web process that refuses private webhook URLs', () => {
  it.each([
    'http://127.0.0.1:4000/hooks',
    'http://localhost:3000/hooks',
    'http://[::1]/hooks',
    'http://[::ffff:127.0.0.1]/hooks',
    'http://10.0.0.8/hooks',
    'http://172.20.1.1/hooks',
    'http://192.168.1.10/hooks',
    'http://169.254.169.254/latest/meta-data/',
    'http://0.0.0.0:8080/',
    // IPv6 forms that carry a loopback or link-local IPv4 address
    'http://[::ffff:0:127.0.0.1]/hooks',
    'http://[64:ff9b::127.0.0.1]/hooks',
    'http://[64:ff9b:1::7f00:1]/hooks',
    'http://[64:ff9b:1:ab::169.254.169.254]/latest/meta-data/',
  ])('refuses %s', async (url) => {
    const response = await call('POST', '/v1/webhook-endpoints', { url, events: ['*'] });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'parameter_invalid', param: 'url' });
    expect(response.body.error.message).toMatch(/non-public address/);
  });
});

describe('a web process killed after commit, before delivery', () => {
  it('has its events delivered by a worker started after the crash', async () => {
    const session = await call('POST', '/v1/checkout-sessions', sessionBody());
    expect(session.status).toBe(201);
    const payment = await call('POST', `/v1/test-helpers/checkout-sessions/${session.body.id}/pay`, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    expect(payment.body.status).toBe('succeeded');

    web!.kill('SIGKILL');
    await waitUntil(async () => web!.exitCode !== null || web!.signalCode !== null, 10_000, 'the web process to die');
    expect(receiver.received).toHaveLength(0);
    const pending = await client.webhookDelivery.findMany({ where: { status: 'pending' } });
    expect(pending.map((delivery) => delivery.eventType).sort()).toEqual([
      'checkout_session.completed',
      'payment.succeeded',
    ]);

    const log = fs.createWriteStream(`${TEST_DATA_DIR}/restart-worker.log`);
    worker = spawn(process.execPath, ['--import', 'tsx', 'scripts/sandbox.ts', 'worker'], {
      env: { ...baseEnv(), WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout?.pipe(log);
    worker.stderr?.pipe(log);

    const delivered = await receiver.waitFor(2, 30_000);
    const payloads = delivered.map(
      (webhook) =>
        new Webhook(secret).verify(webhook.body, webhook.headers) as { type: string; data: { object: { id: string } } },
    );
    expect(payloads.map((payload) => payload.type).sort()).toEqual(['checkout_session.completed', 'payment.succeeded']);
    expect(payloads.find((payload) => payload.type === 'payment.succeeded')!.data.object.id).toBe(payment.body.id);
    await waitUntil(
      async () => (await client.webhookDelivery.count({ where: { status: 'succeeded' } })) === 2,
      10_000,
      'deliveries to be recorded',
    );

    worker.kill('SIGTERM');
    await waitUntil(async () => worker!.exitCode !== null || worker!.signalCode !== null, 10_000, 'the worker to stop');
    expect(receiver.received).toHaveLength(2);
  });
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
