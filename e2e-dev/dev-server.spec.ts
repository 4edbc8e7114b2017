import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { runningEmbeddedServer } from '@/lib/db/embedded';
import { E2E_DEV_DATA_DIR, E2E_DEV_PORT } from '../playwright.dev.config';

// `npm run dev` as a developer runs it: a checkout page held open 30 s is never rebuilt or reloaded (the
// embedded database writes under a data folder inside the tree, which the dev watcher must not see), and
// Ctrl-C stops the embedded PostgreSQL the dev server started. The data folder is inside the project on
// purpose, where the default ./data is.

const BASE_URL = `http://127.0.0.1:${E2E_DEV_PORT}`;
const API_KEY = `sk_sandbox_${'DevE'.repeat(8)}`;
const HOLD_MS = 30_000;

let server: ChildProcess;
let serverLog = '';

test.beforeAll(async () => {
  // its own process group, as a terminal's foreground job is: Ctrl-C is SIGINT to the whole group
  server = spawn(
    process.execPath,
    ['node_modules/next/dist/bin/next', 'dev', '-p', String(E2E_DEV_PORT), '-H', '127.0.0.1'],
    {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATA_DIR: E2E_DEV_DATA_DIR,
        APP_URL: BASE_URL,
        NEXTAUTH_URL: BASE_URL,
        SANDBOX_API_KEY: API_KEY,
        NODE_ENV: 'development',
      },
    },
  );
  server.stdout!.on('data', (chunk: Buffer) => (serverLog += chunk));
  server.stderr!.on('data', (chunk: Buffer) => (serverLog += chunk));
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`next dev exited with ${server.exitCode}:\n${serverLog}`);
    const ready = await fetch(`${BASE_URL}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`next dev not ready in 240 s:\n${serverLog}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
});

test.afterAll(async () => {
  if (server.exitCode === null && server.signalCode === null) process.kill(-server.pid!, 'SIGKILL');
});

test('a checkout page under next dev stays 30 s without a rebuild or reload, and Ctrl-C stops its database', async ({
  page,
}) => {
  const created = await fetch(`${BASE_URL}/v1/checkout-sessions`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${API_KEY}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': randomUUID(),
    },
    body: JSON.stringify({
      order_reference: `dev-${Date.now()}`,
      currency: 'USD',
      items: [{ name: 'Mug', quantity: 1, unit_amount: 1200 }],
      amount: 1200,
      return_url: 'https://shop.example.com/thanks',
    }),
  });
  const session = await created.json();
  expect(created.status, JSON.stringify(session)).toBe(201);

  const navigations: string[] = [];
  const rebuilds: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations.push(frame.url());
  });
  page.on('console', (message) => {
    if (/Fast Refresh|\[HMR\]|rebuilding/i.test(message.text())) rebuilds.push(message.text());
  });
  await page.goto(session.url, { timeout: 180_000 });
  const number = page.getByLabel('Card number');
  await number.pressSequentially('4242424242424242', { timeout: 60_000 });
  await expect(number).toHaveValue('4242 4242 4242 4242');
  await page.evaluate(() => ((window as unknown as { heldOpen: boolean }).heldOpen = true));
  // anything the first compile of this page still had in flight settles before the count starts
  await page.waitForTimeout(2_000);
  navigations.length = 0;
  rebuilds.length = 0;

  await page.waitForTimeout(HOLD_MS);

  expect(navigations, 'the page reloaded').toEqual([]);
  expect(rebuilds, 'the dev server rebuilt the page').toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { heldOpen?: boolean }).heldOpen)).toBe(true);
  await expect(number).toHaveValue('4242 4242 4242 4242');
  expect(await runningEmbeddedServer(E2E_DEV_DATA_DIR)).toBe(true);

  // Ctrl-C: SIGINT to the dev server's process group
  expect(server.exitCode, `next dev ended on its own:\n${serverLog}`).toBeNull();
  const exited = new Promise((resolve) => server.once('exit', resolve));
  process.kill(-server.pid!, 'SIGINT');
  await exited;
  await expect.poll(() => runningEmbeddedServer(E2E_DEV_DATA_DIR), { timeout: 30_000 }).toBe(false);
});
