import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiKey } from '@/lib/api-keys/service';
import { SCOPES } from '@/lib/api-keys/scopes';
import { db } from '@/lib/db';
import { startNextServer, type NextServer } from '../setup/next-server';
import { createTestMerchant } from '../helpers';
import { contextOf } from '@/test/context';

// Limits that keep one client from costing everyone: unknown keys per client address, and a merchant's
// keys together. A server of this file's own runs them at small limits (unknown keys at the default) and
// trusts loopback as its proxy, so X-Forwarded-For names the client.

const unknownKey = () => `sk_sandbox_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x').slice(0, 32)}`;
const FAILURES_PER_MINUTE = 20;
const MERCHANT = { perSecond: 4, burst: 12 };

let server: NextServer;
beforeAll(async () => {
  server = await startNextServer({
    databaseUrl: inject('serverDatabaseUrl'),
    name: 'api-abuse',
    env: {
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_PER_SECOND: '10',
      RATE_LIMIT_BURST: '10',
      RATE_LIMIT_MERCHANT_PER_SECOND: String(MERCHANT.perSecond),
      RATE_LIMIT_MERCHANT_BURST: String(MERCHANT.burst),
    },
  });
});
afterAll(() => server?.stop());

const call = (key: string, address: string) =>
  fetch(`${server.url}/v1/payments`, { headers: { Authorization: `Bearer ${key}`, 'X-Forwarded-For': address } }).then(
    async (response) => ({
      status: response.status,
      headers: response.headers,
      body: await response.json(),
    }),
  );

describe('unknown API keys from one address', () => {
  it(`are refused with 429 after ${FAILURES_PER_MINUTE} a minute, even in parallel; a valid key from there is still served, and other addresses`, async () => {
    const attacker = '198.51.100.10';
    const answers = await Promise.all(
      Array.from({ length: FAILURES_PER_MINUTE + 10 }, () => call(unknownKey(), attacker)),
    );
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(FAILURES_PER_MINUTE);
    const limited = answers.filter((answer) => answer.status === 429);
    expect(limited).toHaveLength(10);
    expect(limited[0].body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThan(0);

    // one misconfigured client behind an office's NAT must not lock out the others
    const merchant = await createTestMerchant();
    expect((await call(merchant.key, attacker)).status).toBe(200);
    expect((await call(merchant.key, '198.51.100.250')).status).toBe(200);
    // an unknown or malformed key from there is still refused
    expect((await call(unknownKey(), attacker)).status).toBe(429);
    expect((await call('sk_sandbox_short', attacker)).status).toBe(429);
  });

  it('are counted per IPv6 /64: an address each within one /64 is one client', async () => {
    const answers = await Promise.all(
      Array.from({ length: FAILURES_PER_MINUTE + 5 }, (_, index) =>
        call(unknownKey(), `2001:db8:aa:bb:${index.toString(16)}::1`),
      ),
    );
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(5);
    expect((await call(unknownKey(), '2001:db8:aa:bc::1')).status).toBe(401);
  });

  it('are counted by the address our proxy saw, not by what the client wrote before it', async () => {
    const client = '203.0.113.10';
    const answers = await Promise.all(
      Array.from({ length: FAILURES_PER_MINUTE + 5 }, (_, index) => call(unknownKey(), `10.9.${index}.1, ${client}`)),
    );
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(5);
  });
});

describe('a merchant with many keys', () => {
  it('shares one rate between its keys: more keys do not mean more requests', async () => {
    const merchant = await createTestMerchant();
    const keys = [merchant.key];
    for (let index = 0; index < 2; index += 1)
      keys.push((await createApiKey(contextOf(await db(), merchant.merchantId), [...SCOPES])).key);

    const startedAt = Date.now();
    // 8 requests per key: within each key's own limit of 10, but 24 in all
    const answers = await Promise.all(
      keys.flatMap((key) => Array.from({ length: 8 }, () => call(key, '198.51.100.200'))),
    );
    const seconds = Math.ceil((Date.now() - startedAt) / 1000);
    const served = answers.filter((answer) => answer.status === 200).length;
    // the merchant's steady rate for every second the burst took, plus its extra bucket once
    expect(served).toBeLessThanOrEqual(MERCHANT.perSecond * (seconds + 1) + (MERCHANT.burst - MERCHANT.perSecond));
    expect(served).toBeGreaterThan(0);
    for (const answer of answers.filter((answer) => answer.status !== 200)) {
      expect(answer).toMatchObject({ status: 429, body: { error: { code: 'rate_limited' } } });
    }
  });
});
