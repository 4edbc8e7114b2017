import { createHash, createHmac, randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { canonicalJson } from '@/lib/idempotency/service';
import { createApiKey, findActiveApiKey, revokeApiKey } from '@/lib/api-keys/service';
import { db } from '@/lib/db';
import { passesLuhn } from '@/lib/payments/cards';
import { secrets } from '@/lib/secrets';
import { createUser } from '@/lib/users/service';
import { TEST_DATA_DIR } from '../setup/databases';
import { apiClient, createTestMerchant, sessionBody, type TestMerchant } from '../helpers';
import { contextOf } from '@/test/context';

// Secrets at rest and in logs. A customer pays by card through the API and through the hosted page's
// server action, merchants use, misuse and revoke keys, dashboard users sign in with right and wrong
// passwords; then every column of every table and the server's log are searched for the card numbers,
// the keys and the passwords in full. Keys are stored as an HMAC under a server-side pepper and
// compared in constant time.

// the spy sees every comparison the key lookup makes; everything else of node:crypto is the real thing
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});
const crypto = await import('node:crypto');

const SERVER_LOG = path.join(TEST_DATA_DIR, 'api-server.log');

/** A Luhn-valid Visa number nobody else uses, so finding it anywhere means it was kept. */
function uniqueCardNumber(): string {
  for (;;) {
    const body = `4${Array.from({ length: 14 }, () => randomInt(10)).join('')}`;
    for (let check = 0; check < 10; check++)
      if (passesLuhn(`${body}${check}`) && !/^4242/.test(body)) return `${body}${check}`;
  }
}

const spaced = (pan: string) => pan.replace(/(\d{4})(?=\d)/g, '$1 ');

let merchant: TestMerchant;
let api: ReturnType<typeof apiClient>;
const cardsPaid: string[] = [];
const keysUsed: string[] = [];
const passwordsTried: string[] = [];
/** Bodies that carried a card number, as the API received them. */
const cardBodies: unknown[] = [];

/** Every user table of the database, each row cast to text: what a stolen backup would show. */
async function tablesContaining(needle: string | RegExp): Promise<string[]> {
  const client = await db();
  const tables = await client.$queryRaw<{ table_name: string }[]>`
    SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`;
  const found: string[] = [];
  for (const { table_name } of tables) {
    const condition = typeof needle === 'string' ? `strpos(r::text, $1) > 0` : `r::text ~ $1`;
    const [{ count }] = await client.$queryRawUnsafe<{ count: bigint }[]>(
      `SELECT count(*) AS count FROM "${table_name}" r WHERE ${condition}`,
      typeof needle === 'string' ? needle : needle.source,
    );
    if (count > 0n) found.push(table_name);
  }
  return found;
}

/**
 * The server's log, minus the first-start banner: README, Quick start has the server print the demo login and
 * key once, on first start, for the operator at the terminal. Nothing else may show a secret.
 */
async function serverLogWithoutBanner(): Promise<string> {
  // the server writes the file itself (test/setup/next-server.ts): what it logged while answering is there
  const lines = fs.readFileSync(SERVER_LOG, 'utf8').split('\n');
  const banner = lines.findIndex((line) => line.includes('first start, demo account created (shown once)'));
  if (banner >= 0) lines.splice(banner, 3);
  return lines.join('\n');
}

/** The id Next gave the hosted page's payCheckout server action, from the build's manifest. */
function hostedPayActionId(): string {
  const manifest = JSON.parse(
    fs.readFileSync(
      path.join(process.env.NEXT_DIST_DIR || '.next', 'server', 'server-reference-manifest.json'),
      'utf8',
    ),
  );
  const entry = Object.entries(manifest.node as Record<string, { filename: string; exportedName: string }>).find(
    ([, action]) => action.filename === 'app/checkout/[id]/actions.ts' && action.exportedName === 'payCheckout',
  );
  if (!entry) throw new Error('payCheckout is not in the server reference manifest');
  return entry[0];
}

/** Submits the hosted card form exactly as the page's JavaScript does: a POST of the server action. */
async function payOnHostedPage(sessionId: string, card: { number: string; expiry: string; cvc: string; name: string }) {
  const base = inject('serverUrl');
  const response = await fetch(`${base}/checkout/${sessionId}`, {
    method: 'POST',
    headers: {
      'Next-Action': hostedPayActionId(),
      'Content-Type': 'text/plain;charset=UTF-8',
      Accept: 'text/x-component',
      Origin: base,
    },
    body: JSON.stringify([sessionId, { method: 'card', email: '', card }]),
  });
  return { status: response.status, text: await response.text() };
}

async function signIn(email: string, password: string): Promise<number> {
  const base = inject('serverUrl');
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const response = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
    body: new URLSearchParams({ csrfToken, email, password, json: 'true' }),
    redirect: 'manual',
  });
  return response.status;
}

beforeAll(async () => {
  merchant = await createTestMerchant();
  api = apiClient(merchant.key);
  keysUsed.push(merchant.key);

  // by card through the API: a success, a decline, and a refusal that stores nothing
  for (const card of [uniqueCardNumber(), '4000000000000002']) {
    const session = (await api.post('/v1/checkout-sessions', sessionBody())).body;
    const body = {
      payment_method: 'card',
      card_number: spaced(card),
      exp_month: 12,
      exp_year: 2099,
      cvc: '737',
      name: 'Jane Card',
    };
    const paid = await api.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, body);
    expect(paid.status).toBe(200);
    cardsPaid.push(card);
    cardBodies.push(body);
  }
  const closed = (await api.post('/v1/checkout-sessions', sessionBody())).body;
  await api.post(`/v1/checkout-sessions/${closed.id}/expire`, {});
  const refusedCard = uniqueCardNumber();
  expect(
    (
      await api.post(`/v1/test-helpers/checkout-sessions/${closed.id}/pay`, {
        payment_method: 'card',
        card_number: refusedCard,
      })
    ).status,
  ).toBe(409);
  cardsPaid.push(refusedCard);

  // by card on the hosted page, with every field of the form
  const hosted = uniqueCardNumber();
  const session = (await api.post('/v1/checkout-sessions', sessionBody())).body;
  const page = await payOnHostedPage(session.id, {
    number: spaced(hosted),
    expiry: '12 / 34',
    cvc: '123',
    name: 'Hosted Payer',
  });
  expect(page.status).toBe(200);
  expect(page.text).toContain('"kind":"paid"');
  expect((await api.get(`/v1/checkout-sessions/${session.id}`)).body.status).toBe('complete');
  cardsPaid.push(hosted);

  // keys: used, unknown, revoked, and sent in every wrong place
  const other = await createTestMerchant({ scopes: ['payments:read'] });
  keysUsed.push(other.key);
  const client = await db();
  const revoked = await createApiKey(contextOf(client, other.merchantId), ['payments:read']);
  await revokeApiKey(contextOf(client, other.merchantId), revoked.id);
  keysUsed.push(revoked.key);
  const unknown = `sk_sandbox_${'Zz9'.repeat(10)}Zz`;
  keysUsed.push(unknown);
  for (const key of keysUsed) {
    await apiClient(key).get('/v1/payments');
    await apiClient(key).post('/v1/checkout-sessions', sessionBody());
    await apiClient().get('/v1/payments', {
      headers: { Authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
    });
    await apiClient().get(`/v1/payments?api_key=${key}`);
  }

  // dashboard sign-in with the right password and wrong ones
  const email = `secrets-${Date.now()}@example.com`;
  const password = `Right-${uniqueCardNumber()}`;
  await createUser(client, { merchantId: merchant.merchantId, email, password });
  passwordsTried.push(password, `Wrong-${uniqueCardNumber()}`, `${'long'.repeat(60)}-${Date.now()}`);
  for (const attempt of passwordsTried) await signIn(email, attempt);
}, 60_000);

describe('card numbers', () => {
  it('are found in no column of any table, whole or spaced, after paying through the API and the hosted page', async () => {
    for (const card of cardsPaid) {
      expect(await tablesContaining(card), card).toEqual([]);
      expect(await tablesContaining(spaced(card)), spaced(card)).toEqual([]);
    }
    // what is kept instead: brand and last four
    const payments = (await api.get('/v1/payments?limit=100')).body.data;
    expect(
      payments.map((payment: { payment_method_details: { card: object } }) =>
        Object.keys(payment.payment_method_details.card).sort(),
      ),
    ).toEqual(payments.map(() => ['brand', 'exp_month', 'exp_year', 'last4']));
  });

  it('leave no unkeyed hash behind: the idempotency fingerprint of a card payment is an HMAC', async () => {
    // a SHA-256 of a body with a card number is no protection: with the BIN and last four known, the
    // other six digits (and the CVC) fall to a brute force in seconds
    for (const body of cardBodies) {
      const plainHash = createHash('sha256').update(canonicalJson(body)).digest('hex');
      expect(await tablesContaining(plainHash)).toEqual([]);
    }
  });

  it('are not in the server log', async () => {
    const log = await serverLogWithoutBanner();
    for (const card of cardsPaid) {
      expect(log.includes(card), card).toBe(false);
      expect(log.includes(spaced(card)), spaced(card)).toBe(false);
    }
  });
});

describe('API keys', () => {
  it('are stored as HMAC-SHA-256 under the server-side pepper, never as the key or its plain hash', async () => {
    const client = await db();
    const row = await client.apiKey.findFirstOrThrow({ where: { merchantId: merchant.merchantId } });
    const { apiKeyPepper } = secrets();
    expect(apiKeyPepper.length).toBeGreaterThanOrEqual(32);
    expect(row.hash).toBe(createHmac('sha256', apiKeyPepper).update(merchant.key).digest('hex'));
    expect(row.hash).not.toBe(createHash('sha256').update(merchant.key).digest('hex'));
    expect(row.prefix).toBe(`${merchant.key.slice(0, 15)}…${merchant.key.slice(-4)}`);
    // the pepper lives outside the database: a copy of the database alone cannot check a guessed key
    expect(await tablesContaining(apiKeyPepper)).toEqual([]);
  });

  it('are in no column of any table, in full', async () => {
    expect(await tablesContaining(/sk_sandbox_[0-9A-Za-z]{32}/)).toEqual([]);
    for (const key of keysUsed) expect(await tablesContaining(key.slice('sk_sandbox_'.length))).toEqual([]);
  });

  it('are compared in constant time, after a lookup by their HMAC', async () => {
    const spy = vi.mocked(crypto.timingSafeEqual);
    spy.mockClear();
    expect(await findActiveApiKey(merchant.key)).toMatchObject({ merchantId: merchant.merchantId });
    expect(spy).toHaveBeenCalledTimes(1);
    const [stored, computed] = spy.mock.calls[0] as [Buffer, Buffer];
    expect(stored.toString()).toBe(computed.toString());
    expect(stored.toString()).toBe(createHmac('sha256', secrets().apiKeyPepper).update(merchant.key).digest('hex'));

    spy.mockClear();
    expect(await findActiveApiKey(`sk_sandbox_${'Q'.repeat(32)}`)).toBeNull();
  });

  it('are not in the server log, in full, in any form', async () => {
    const log = await serverLogWithoutBanner();
    expect(log.match(/sk_sandbox_[0-9A-Za-z]{32}/g) ?? []).toEqual([]);
    for (const key of keysUsed) expect(log.includes(key.slice('sk_sandbox_'.length)), key).toBe(false);
  });
});

describe('the server log', () => {
  it('has no Authorization header and no password', async () => {
    const log = await serverLogWithoutBanner();
    expect(log).not.toMatch(/authorization/i);
    expect(log).not.toMatch(/Bearer\s/);
    for (const password of passwordsTried) expect(log.includes(password), 'a password tried at sign-in').toBe(false);
  });
});
