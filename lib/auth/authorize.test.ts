import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { authorizeSignIn, clientAddressFrom } from './authorize';
import { ATTEMPTS_PER_ADDRESS, ATTEMPTS_PER_EMAIL } from './login-throttle';
import { signUp } from './sign-up';

let counter = 0;
function uniqueEmail() {
  counter += 1;
  return `owner-${Date.now()}-${counter}@example.com`;
}

async function newAccount(password = 'correct horse battery') {
  const email = uniqueEmail();
  const outcome = await signUp(await db(), { businessName: 'Maple Goods', email, password });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.fieldErrors));
  return { ...outcome, password };
}

describe('sign-up', () => {
  it('creates the merchant and its user together; the user signs in with that password', async () => {
    const client = await db();
    const account = await newAccount();
    const merchant = await client.merchant.findUniqueOrThrow({ where: { id: account.merchantId }, include: { websites: true } });
    expect(merchant).toMatchObject({ name: 'Maple Goods', paymentMethods: ['card', 'usdc', 'interac'], refundPolicy: 'automatic', websites: [] });
    const outcome = await authorizeSignIn(client, { email: account.email.toUpperCase(), password: account.password }, '10.0.0.1');
    expect(outcome).toEqual({ ok: true, user: { id: account.userId, email: account.email, merchantId: account.merchantId } });
  });

  it('refuses short passwords, bad e-mails, empty names and a taken e-mail, and creates nothing', async () => {
    const client = await db();
    const before = await client.merchant.count();
    expect(await signUp(client, { businessName: ' ', email: 'not-an-email', password: 'short' })).toEqual({
      ok: false,
      fieldErrors: {
        businessName: 'Enter your business name.',
        email: 'Enter an e-mail address like you@example.com.',
        password: 'Use at least 10 characters.',
      },
    });
    const account = await newAccount();
    expect(await signUp(client, { businessName: 'Copycat', email: account.email, password: 'another password' })).toEqual({
      ok: false,
      fieldErrors: { email: 'An account with this e-mail already exists. Sign in instead.' },
    });
    // the refused sign-up's merchant was rolled back with its user
    expect(await client.merchant.count()).toBe(before + 1);
  });
});

describe('sign-in', () => {
  it('does not say whether the e-mail or the password was wrong', async () => {
    const client = await db();
    const account = await newAccount();
    expect(await authorizeSignIn(client, { email: account.email, password: 'wrong password!' }, '10.0.0.2')).toEqual({ ok: false, reason: 'invalid_credentials' });
    expect(await authorizeSignIn(client, { email: uniqueEmail(), password: 'wrong password!' }, '10.0.0.2')).toEqual({ ok: false, reason: 'invalid_credentials' });
    expect(await authorizeSignIn(client, { email: account.email }, '10.0.0.2')).toEqual({ ok: false, reason: 'invalid_credentials' });
  });

  it(`locks an e-mail after ${ATTEMPTS_PER_EMAIL} attempts in 15 minutes, even with the right password, from any address`, async () => {
    const client = await db();
    const account = await newAccount();
    for (let attempt = 1; attempt <= ATTEMPTS_PER_EMAIL; attempt += 1) {
      const outcome = await authorizeSignIn(client, { email: account.email, password: `guess number ${attempt}` }, `10.1.0.${attempt}`);
      expect(outcome).toEqual({ ok: false, reason: 'invalid_credentials' });
    }
    const locked = await authorizeSignIn(client, { email: account.email, password: account.password }, '10.1.1.1');
    expect(locked).toMatchObject({ ok: false, reason: 'throttled' });
    expect(locked.ok === false && locked.reason === 'throttled' && locked.retryAfterSeconds).toBeGreaterThan(14 * 60);

    // when the window has passed, the owner gets in, and that clears the count
    await client.$executeRaw`UPDATE "login_throttles" SET "window_started_at" = now() - interval '16 minutes'`;
    expect(await authorizeSignIn(client, { email: account.email, password: account.password }, '10.1.1.1')).toMatchObject({ ok: true });
  });

  it('parallel guesses get no more password checks than the limit', async () => {
    const client = await db();
    const account = await newAccount();
    const outcomes = await Promise.all(
      Array.from({ length: 15 }, (_, index) => authorizeSignIn(client, { email: account.email, password: `parallel guess ${index}` }, '10.2.0.1')),
    );
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === 'invalid_credentials')).toHaveLength(ATTEMPTS_PER_EMAIL);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === 'throttled')).toHaveLength(15 - ATTEMPTS_PER_EMAIL);
  });

  it(`locks an address after ${ATTEMPTS_PER_ADDRESS} failures over many accounts; successes from it do not count`, async () => {
    const client = await db();
    const address = '10.3.0.1';
    const account = await newAccount();
    // a colleague behind the same address signs in correctly, many times
    for (let index = 0; index < ATTEMPTS_PER_ADDRESS + 2; index += 1) {
      expect(await authorizeSignIn(client, { email: account.email, password: account.password }, address)).toMatchObject({ ok: true });
    }
    for (let index = 0; index < ATTEMPTS_PER_ADDRESS; index += 1) {
      expect(await authorizeSignIn(client, { email: uniqueEmail(), password: 'spray password' }, address)).toEqual({ ok: false, reason: 'invalid_credentials' });
    }
    expect(await authorizeSignIn(client, { email: account.email, password: account.password }, address)).toMatchObject({ ok: false, reason: 'throttled' });
    // another address is not affected
    expect(await authorizeSignIn(client, { email: account.email, password: account.password }, '10.3.0.2')).toMatchObject({ ok: true });
  });

  it('stores neither e-mails nor addresses in clear', async () => {
    const client = await db();
    await authorizeSignIn(client, { email: 'someone@example.com', password: 'whatever password' }, '192.0.2.77');
    const keys = (await client.loginThrottle.findMany()).map((row) => row.key);
    expect(keys.some((key) => key.includes('someone') || key.includes('192.0.2.77'))).toBe(false);
    expect(keys.every((key) => /^(email|ip):[0-9a-f]{64}$/.test(key))).toBe(true);
  });
});

describe('clientAddressFrom', () => {
  it('trusts only the last X-Forwarded-For hop', () => {
    expect(clientAddressFrom({ 'x-forwarded-for': '1.2.3.4, 203.0.113.9' })).toBe('203.0.113.9');
    expect(clientAddressFrom({ 'x-forwarded-for': '127.0.0.1' })).toBe('127.0.0.1');
    expect(clientAddressFrom({})).toBeNull();
    expect(clientAddressFrom(undefined)).toBeNull();
  });
});
