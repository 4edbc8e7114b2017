// npm run bench:data -- --data N: how the lists, lookups and dashboard pages hold up with N payments of one
// merchant (docs/performance.md). Builds if needed, starts `next start` on a fresh embedded database,
// seeds N paid orders into the demo merchant by SQL (scripts/bench-seed.ts), signs in to its dashboard, and
// times each request: its first call (the route and its key cold, as a merchant's request now and then finds
// them), then the median of 5 after a second warm-up, one at a time, each against its target. With --reuse it
// times again the database a previous run seeded with the same N (minutes of seeding saved), the server and
// PostgreSQL started afresh on it. Not part of npm test.
import fs from 'node:fs';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { ensureEmbeddedServer, stopEmbeddedServer } from '../lib/db/embedded';
import { withClient } from '../lib/db/short-client';
import { seededIds, seedPayments } from './bench-seed';
import { BENCH_API_KEY, startBenchServer } from './bench-server';

const DATA_DIR = 'data/bench-data';
const EMAIL = 'demo@example.com';
const PASSWORD = 'bench-data-password';
const TAG = 'B1';
const RUNS = 5;
const TARGET_MS = { api: 50, page: 300 };

type Request = { name: string; path: string; kind: keyof typeof TARGET_MS };
type Timing = Request & { firstMs: number; medianMs: number; maxMs: number; status: number };

function count(): number {
  const at = process.argv.indexOf('--data');
  const value = Number(at > 0 ? process.argv[at + 1] : 100_000);
  if (!Number.isInteger(value) || value < 100) throw new Error('usage: npm run bench:data -- --data N (N ≥ 100)');
  return value;
}

async function main() {
  const n = count();
  const reuse = process.argv.includes('--reuse') && (await seededBefore(n));
  const { base, stop } = await startBenchServer({ dataDir: DATA_DIR, reuseData: reuse });
  try {
    const database = await ensureEmbeddedServer(path.resolve(DATA_DIR), () => {});
    const seedSeconds = await withClient({ connectionString: database.adminUrl('sandbox') }, async (client) => {
      const { rows } = await client.query<{ merchant_id: string }>('SELECT merchant_id FROM users WHERE email = $1', [
        EMAIL,
      ]);
      const merchantId = rows[0].merchant_id;
      // the demo user's password is random and printed once: the bench sets its own
      await client.query('UPDATE users SET password_hash = $1 WHERE email = $2', [
        await bcrypt.hash(PASSWORD, 10),
        EMAIL,
      ]);
      if (reuse) return null;
      const started = performance.now();
      await seedPayments(client, { merchantId, count: n, tag: TAG, triggers: false });
      await client.query('VACUUM ANALYZE');
      const seconds = (performance.now() - started) / 1000;
      console.error(`seeded ${n} payments in ${seconds.toFixed(1)} s (with VACUUM ANALYZE)`);
      return seconds;
    });
    const cookie = await signIn(base);
    const timings: Timing[] = [];
    for (const request of await requests(base, n)) timings.push(await time(base, request, cookie));
    printTable(n, seedSeconds, timings);
  } finally {
    await stop();
    await stopEmbeddedServer(DATA_DIR);
  }
}

/** Whether DATA_DIR holds a database a previous run seeded with n payments (stopped again after looking). */
async function seededBefore(n: number): Promise<boolean> {
  if (!fs.existsSync(path.join(DATA_DIR, 'postgres'))) return false;
  const database = await ensureEmbeddedServer(path.resolve(DATA_DIR), () => {});
  try {
    return await withClient({ connectionString: database.adminUrl('sandbox') }, async (client) => {
      const { rows } = await client.query<{ count: string }>('SELECT count(*) FROM payments');
      return Number(rows[0].count) === n;
    });
  } finally {
    await stopEmbeddedServer(DATA_DIR);
  }
}

async function requests(base: string, n: number): Promise<Request[]> {
  const middle = seededIds(TAG, Math.floor(n / 2) + 1);
  const failed = seededIds(TAG, 10 * Math.floor(n / 20));
  const firstPage = (await (await api(base, '/v1/payments?limit=100')).json()) as { data: Array<{ id: string }> };
  const last = firstPage.data.at(-1)!.id;
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  const partial = middle.reference.slice(0, -1).slice(-6);
  const v1 = (name: string, p: string): Request => ({ name, path: p, kind: 'api' });
  const page = (name: string, p: string): Request => ({ name, path: p, kind: 'page' });
  return [
    v1('GET /v1/payments/{id}', `/v1/payments/${middle.payment}`),
    v1('GET /v1/payments?limit=100', '/v1/payments?limit=100'),
    v1('GET /v1/payments?limit=100, next page', `/v1/payments?limit=100&starting_after=${last}`),
    v1('GET /v1/payments?order_reference=…', `/v1/payments?order_reference=${middle.reference}`),
    v1('GET /v1/payments?status=failed', '/v1/payments?status=failed&limit=100'),
    v1('GET /v1/checkout-sessions/{id}', `/v1/checkout-sessions/${middle.session}`),
    v1('GET /v1/checkout-sessions?limit=100', '/v1/checkout-sessions?limit=100'),
    v1('GET /v1/checkout-sessions?order_reference=…', `/v1/checkout-sessions?order_reference=${middle.reference}`),
    v1('GET /v1/checkout-sessions?status=expired', '/v1/checkout-sessions?status=expired&limit=100'),
    v1('GET /v1/refund-requests?limit=100', '/v1/refund-requests?limit=100'),
    v1('GET /v1/events?limit=100', '/v1/events?limit=100'),
    page('dashboard Home', '/dashboard'),
    page('dashboard payments', '/dashboard/payments'),
    page('dashboard payments, page 3', '/dashboard/payments?page=3'),
    page('dashboard payments, failed', '/dashboard/payments?status=failed'),
    page('dashboard payments, partially refunded', '/dashboard/payments?status=partially_refunded'),
    page('dashboard payments, Interac in CAD', '/dashboard/payments?method=interac&currency=CAD'),
    page('dashboard payments, last 7 days', `/dashboard/payments?from=${day(7)}&to=${day(0)}`),
    page('dashboard payments, search by id', `/dashboard/payments?q=${middle.payment}`),
    page('dashboard payments, search by reference', `/dashboard/payments?q=${middle.reference}`),
    page('dashboard payments, search by part of one', `/dashboard/payments?q=${partial}`),
    page('dashboard payment', `/dashboard/payments/${failed.payment}`),
    page('dashboard checkout sessions', '/dashboard/checkout-sessions'),
    page('dashboard checkout sessions, expired', '/dashboard/checkout-sessions?status=expired'),
    page('dashboard checkout sessions, search', `/dashboard/checkout-sessions?q=${partial}`),
    page('dashboard checkout session', `/dashboard/checkout-sessions/${middle.session}`),
    page('dashboard refunds', '/dashboard/refunds'),
    page('dashboard payment links', '/dashboard/payment-links'),
    page('dashboard payment link', `/dashboard/payment-links/pl_${TAG}${'1'.padStart(22, '0')}`),
    page('dashboard events', '/dashboard/developers/events'),
    page('dashboard logs', '/dashboard/developers/logs'),
    page('dashboard webhooks', '/dashboard/developers/webhooks'),
    page('dashboard webhook endpoint', `/dashboard/developers/webhooks/we_${TAG}${'1'.padStart(22, '0')}`),
    page('dashboard API keys', '/dashboard/developers/api-keys'),
    page('dashboard settings', '/dashboard/settings'),
  ];
}

async function time(base: string, request: Request, cookie: string): Promise<Timing> {
  const once = async () => {
    const started = performance.now();
    const response =
      request.kind === 'api'
        ? await api(base, request.path)
        : await fetch(`${base}${request.path}`, { headers: { Cookie: cookie }, redirect: 'manual' });
    await response.arrayBuffer();
    return { ms: performance.now() - started, status: response.status };
  };
  const first = await once();
  await once();
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once());
  const sorted = runs.map((run) => run.ms).sort((a, b) => a - b);
  const status = [first, ...runs].find((run) => run.status !== 200)?.status ?? 200;
  return { ...request, firstMs: first.ms, medianMs: sorted[Math.floor(RUNS / 2)], maxMs: sorted.at(-1)!, status };
}

function api(base: string, p: string) {
  return fetch(`${base}${p}`, { headers: { Authorization: `Bearer ${BENCH_API_KEY}` } });
}

/** The dashboard's credentials sign-in, as a browser posts it; returns the session cookie. */
async function signIn(base: string): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookies = (response: Response) => response.headers.getSetCookie().map((line) => line.split(';')[0]);
  const response = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookies(csrf).join('; ') },
    body: new URLSearchParams({ csrfToken, email: EMAIL, password: PASSWORD, json: 'true' }),
    redirect: 'manual',
  });
  const session = cookies(response).find((cookie) => cookie.includes('session-token'));
  if (!session) throw new Error(`sign-in failed: ${response.status}`);
  return session;
}

function printTable(n: number, seedSeconds: number | null, timings: Timing[]) {
  const ms = (value: number) => `${Math.round(value)} ms`;
  const seeded = seedSeconds === null ? 'seeded by an earlier run' : `seeded in ${seedSeconds.toFixed(0)} s`;
  console.log(`\n${n.toLocaleString('en-US')} payments, ${seeded}\n`);
  console.log('| request | first | median | max | target | |');
  console.log('|---|--:|--:|--:|--:|---|');
  for (const timing of timings) {
    const target = TARGET_MS[timing.kind];
    const met = timing.firstMs <= target && timing.medianMs <= target;
    const verdict = timing.status !== 200 ? `HTTP ${timing.status}` : met ? 'met' : '**missed**';
    const row = [timing.name, ms(timing.firstMs), ms(timing.medianMs), ms(timing.maxMs), `${target} ms`, verdict];
    console.log(`| ${row.join(' | ')} |`);
  }
}

await main();
