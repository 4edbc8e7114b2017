import { describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db';
import { throttles } from '@/lib/throttles/rules';
import { authorizeSignIn } from './authorize';
import { MAX_SLOW_DOWN_MS } from './login-throttle';
import { EMAIL_UNAVAILABLE, signUp } from './sign-up';

// The slow-down of an account under attack is a sleep before its password is checked (./authorize.ts): each
// sleep asked for is recorded and returns at once, so its length is read exactly instead of waited out
const sleeps = vi.hoisted(() => [] as number[]);
vi.mock('node:timers/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:timers/promises')>();
  return {
    ...actual,
    setTimeout: async (ms: number, value?: unknown) => {
      sleeps.push(ms);
      return value;
    },
  };
});

const PER_PAIR = throttles.signInPerAddressAndEmail().limit;
const PER_ADDRESS = throttles.signInPerAddress().limit;
const PER_EMAIL = throttles.signInPerEmail().limit;
const SIGN_UPS = throttles.signUpPerAddress().limit;

let counter = 0;
function uniqueEmail() {
  counter += 1;
  return `owner-${Date.now()}-${counter}@example.com`;
}

async function newAccount(password = 'correct horse battery') {
  const email = uniqueEmail();
  const outcome = await signUp(await db(), { businessName: 'Maple Goods', email, password }, null);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome));
  return { ...outcome, password };
}

describe('sign-up', () => {
  it('creates the merchant and its user together; the user signs in with that password', async () => {
    const client = await db();
    const account = await newAccount();
    const merchant = await client.merchant.findUniqueOrThrow({
      where: { id: account.merchantId },
      include: { websites: true },
    });
    expect(merchant).toMatchObject({
      name: 'Maple Goods',
      paymentMethods: ['card', 'usdc', 'interac'],
      refundPolicy: 'automatic',
      websites: [],
    });
    const outcome = await authorizeSignIn(
      client,
      { email: account.email.toUpperCase(), password: account.password },
      '10.0.0.1',
    );
    expect(outcome).toEqual({
      ok: true,
      user: { id: account.userId, email: account.email, merchantId: account.merchantId, sessionVersion: 0 },
    });
  });

  it('refuses short passwords, bad e-mails, empty names and a taken e-mail, and creates nothing', async () => {
    const client = await db();
    const before = await client.merchant.count();
    expect(await signUp(client, { businessName: ' ', email: 'not-an-email', password: 'short' }, null)).toEqual({
      ok: false,
      fieldErrors: {
        businessName: 'Enter your business name.',
        email: 'Enter an e-mail address like you@example.com.',
        password: 'Use at least 10 characters.',
      },
    });
    const account = await newAccount();
    expect(
      await signUp(client, { businessName: 'Copycat', email: account.email, password: 'another password' }, null),
    ).toEqual({
      ok: false,
      fieldErrors: { email: EMAIL_UNAVAILABLE },
    });
    // the answer to a taken e-mail does not say that an account exists
    expect(EMAIL_UNAVAILABLE).not.toMatch(/exists|already|registered/i);
    // the refused sign-up's merchant was rolled back with its user
    expect(await client.merchant.count()).toBe(before + 1);
  });

  it(`takes at most ${SIGN_UPS} sign-ups an hour from one address, however fast they come`, async () => {
    const client = await db();
    const before = await client.merchant.count();
    const outcomes = await Promise.all(
      Array.from({ length: SIGN_UPS + 4 }, () =>
        signUp(
          client,
          { businessName: 'Spam', email: uniqueEmail(), password: 'a long enough password' },
          '203.0.113.50',
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(SIGN_UPS);
    for (const outcome of outcomes.filter((outcome) => !outcome.ok)) {
      expect(outcome).toMatchObject({
        ok: false,
        refusal: {
          code: 'rate_limited',
          headers: { 'Retry-After': expect.stringMatching(/^\d+$/) },
          userMessage: expect.stringMatching(
            /^Too many accounts were created from your network\. Try again in \d+ minutes?\.$/,
          ),
        },
      });
    }
    expect(await client.merchant.count()).toBe(before + SIGN_UPS);
    // someone else signs up as usual
    expect(
      await signUp(
        client,
        { businessName: 'Real Shop', email: uniqueEmail(), password: 'a long enough password' },
        '203.0.113.51',
      ),
    ).toMatchObject({ ok: true });
  });
});

const wrong = (attempt: number) => ({ password: `wrong guess ${attempt}` });

describe('sign-in', () => {
  it('does not say whether the e-mail or the password was wrong', async () => {
    const client = await db();
    const account = await newAccount();
    expect(await authorizeSignIn(client, { email: account.email, password: 'wrong password!' }, '10.0.0.2')).toEqual({
      ok: false,
      reason: 'invalid_credentials',
    });
    expect(await authorizeSignIn(client, { email: uniqueEmail(), password: 'wrong password!' }, '10.0.0.2')).toEqual({
      ok: false,
      reason: 'invalid_credentials',
    });
    expect(await authorizeSignIn(client, { email: account.email }, '10.0.0.2')).toEqual({
      ok: false,
      reason: 'invalid_credentials',
    });
  });

  it(`refuses an address after ${PER_PAIR} guesses at one account, even the right password, for 15 minutes`, async () => {
    const client = await db();
    const account = await newAccount();
    for (let attempt = 1; attempt <= PER_PAIR; attempt += 1) {
      expect(await authorizeSignIn(client, { email: account.email, ...wrong(attempt) }, '10.1.0.1')).toEqual({
        ok: false,
        reason: 'invalid_credentials',
      });
    }
    const locked = await authorizeSignIn(client, { email: account.email, password: account.password }, '10.1.0.1');
    expect(locked).toMatchObject({ ok: false, reason: 'throttled' });
    expect(locked.ok === false && locked.reason === 'throttled' && locked.retryAfterSeconds).toBeGreaterThan(14 * 60);

    // when the window has passed, the owner gets in from there too
    await client.$executeRaw`UPDATE "throttles" SET "window_started_at" = now() - interval '16 minutes'`;
    expect(
      await authorizeSignIn(client, { email: account.email, password: account.password }, '10.1.0.1'),
    ).toMatchObject({ ok: true });
  });

  it('never locks the owner out: guesses from many addresses slow the account down but the right password from a clean address gets in', async () => {
    const client = await db();
    const account = await newAccount();
    // an attacker guesses from ten addresses, more than the account's own limit in all
    for (let attempt = 1; attempt <= PER_EMAIL + 5; attempt += 1) {
      expect(await authorizeSignIn(client, { email: account.email, ...wrong(attempt) }, `10.4.0.${attempt}`)).toEqual({
        ok: false,
        reason: 'invalid_credentials',
      });
    }
    sleeps.length = 0;
    expect(
      await authorizeSignIn(client, { email: account.email, password: account.password }, '10.4.1.1'),
    ).toMatchObject({ ok: true });
    // the account is under attack, so even its owner waits a moment, never more than the cap
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(1_000);
    expect(sleeps[0]).toBeLessThanOrEqual(MAX_SLOW_DOWN_MS);
  });

  it('parallel guesses from one address get no more password checks than the limit', async () => {
    const client = await db();
    const account = await newAccount();
    const outcomes = await Promise.all(
      Array.from({ length: 15 }, (_, index) =>
        authorizeSignIn(client, { email: account.email, password: `parallel guess ${index}` }, '10.2.0.1'),
      ),
    );
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === 'invalid_credentials')).toHaveLength(
      PER_PAIR,
    );
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === 'throttled')).toHaveLength(15 - PER_PAIR);
  });

  it(`refuses an address after ${PER_ADDRESS} failures over many accounts; successes from it do not count`, async () => {
    const client = await db();
    const address = '10.3.0.1';
    const account = await newAccount();
    // a colleague behind the same address signs in correctly, many times
    for (let index = 0; index < PER_ADDRESS + 2; index += 1) {
      expect(
        await authorizeSignIn(client, { email: account.email, password: account.password }, address),
      ).toMatchObject({ ok: true });
    }
    for (let index = 0; index < PER_ADDRESS; index += 1) {
      expect(await authorizeSignIn(client, { email: uniqueEmail(), password: 'spray password' }, address)).toEqual({
        ok: false,
        reason: 'invalid_credentials',
      });
    }
    expect(await authorizeSignIn(client, { email: account.email, password: account.password }, address)).toMatchObject({
      ok: false,
      reason: 'throttled',
    });
    // another address is not affected
    expect(
      await authorizeSignIn(client, { email: account.email, password: account.password }, '10.3.0.2'),
    ).toMatchObject({ ok: true });
  });

  it('stores neither e-mails nor addresses in clear', async () => {
    const client = await db();
    await authorizeSignIn(client, { email: 'someone@example.com', password: 'whatever password' }, '192.0.2.77');
    const keys = (await client.throttle.findMany()).map((row) => row.key);
    expect(keys.some((key) => key.includes('someone') || key.includes('192.0.2.77'))).toBe(false);
    expect(keys.every((key) => /^[a-z-]+:[0-9a-f]{64}$/.test(key))).toBe(true);
  });
});
