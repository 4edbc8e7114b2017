import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db';
import { EXPIRY_MONTH_INVALID } from '@/lib/payments/hosted-form';
import { createUser } from '@/lib/users/service';
import { apiClient, createTestMerchant, sessionBody } from '../helpers';
import { TEST_DATA_DIR } from '../setup/databases';
import { startNextServer, type NextServer } from '../setup/next-server';
import { changedTables, createFixtureMerchant, merchantState, type FixtureMerchant } from './properties-support';

// A server action is a public POST endpoint: anyone with its id (it is in our pages' JavaScript) can call
// it with any arguments React can encode, whatever its TypeScript signature says. Here a signed-in
// merchant's cookie calls every dashboard action over HTTP, as the page's JavaScript would, with
// arguments no form of ours sends, and with bodies nested far deeper than any form's. Each gets a plain
// refusal (the form's own error, or a 400 before the action runs), never a 500; nothing changes, and the
// server logs no error and none of what was sent.

// "Nothing changes" counts every merchant, session and payment, and "nothing logged" reads every line the server
// writes: with other files' tests running beside these, this file has a database and a server of its own, set
// before anything here opens one.
const databaseUrl = await vi.hoisted(async () => {
  const { inject } = await import('vitest');
  const { createTestDatabase } = await import('../setup/databases');
  const url = await createTestDatabase(inject('adminUrl'), 'actions');
  process.env.DATABASE_URL = url;
  return url;
});
const SERVER_NAME = 'api-server-actions';
const SERVER_LOG = path.join(TEST_DATA_DIR, `${SERVER_NAME}-server.log`);
const PASSWORD = 'correct horse battery staple';
/** Carried in every wrong argument: it must not reach the log. */
const MARK = `caller-data-${randomUUID()}`;

type Action = { id: string; name: string; page: string };

/** Every server action of the dashboard, from the build's manifest, with a page that serves it. */
function dashboardActions(): Action[] {
  const manifest = JSON.parse(
    fs.readFileSync(
      path.join(process.env.NEXT_DIST_DIR || '.next', 'server', 'server-reference-manifest.json'),
      'utf8',
    ),
  );
  const entries = Object.entries(
    manifest.node as Record<string, { filename: string; exportedName: string; workers: Record<string, unknown> }>,
  );
  return entries
    .filter(([, action]) => action.filename.startsWith('app/(dashboard)/dashboard/'))
    .map(([id, action]) => ({ id, name: action.exportedName, page: pageOf(Object.keys(action.workers)[0]) }));
}

/** 'app/(dashboard)/dashboard/payments/[id]/page' → '/dashboard/payments/x' */
function pageOf(worker: string): string {
  return `/${worker
    .split('/')
    .slice(1, -1)
    .filter((segment) => !/^\(.*\)$/.test(segment))
    .map((segment) => (segment.startsWith('[') ? 'x' : segment))
    .join('/')}`;
}

let server: NextServer;
let base: string;
let cookie: string;
let shop: FixtureMerchant;

beforeAll(async () => {
  server = await startNextServer({ databaseUrl, name: SERVER_NAME });
  base = server.url;
  shop = await createFixtureMerchant({ name: 'Actions Shop' });
  const email = `actions-${randomUUID()}@example.com`;
  await createUser(await db(), { merchantId: shop.merchantId, email, password: PASSWORD });
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signIn = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Cookie: csrf.headers
        .getSetCookie()
        .map((line) => line.split(';')[0])
        .join('; '),
    },
    body: new URLSearchParams({ csrfToken, email, password: PASSWORD, json: 'true' }),
    redirect: 'manual',
  });
  cookie = signIn.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  expect(cookie).toContain('session-token');
}, 120_000);
afterAll(() => server?.stop());

/** Calls a server action as the page's JavaScript does: a POST of its arguments with the Next-Action header. */
async function callAction(action: Action, body: string | FormData) {
  const response = await fetch(`${base}${action.page}`, {
    method: 'POST',
    headers: {
      Cookie: cookie,
      'Next-Action': action.id,
      Accept: 'text/x-component',
      Origin: base,
      ...(typeof body === 'string' ? { 'Content-Type': 'text/plain;charset=UTF-8' } : {}),
    },
    body,
    redirect: 'manual',
  });
  return { status: response.status, text: await response.text() };
}

/**
 * What the server logged since `offset` (bytes: its banner's ▲ and ✓ take three each): it writes the file itself,
 * so what it logged while answering is there.
 */
async function logSince(offset: number): Promise<string> {
  return fs.readFileSync(SERVER_LOG).subarray(offset).toString('utf8');
}

const WRONG_ARGUMENTS: [string, unknown[]][] = [
  ['no arguments', []],
  ['a string for the form', [{ status: 'idle' }, MARK]],
  ['an array for the form', [{ status: 'idle' }, [MARK, { name: MARK }]]],
  ['an object that looks like a form', [{ status: 'idle' }, { get: MARK, getAll: [MARK], name: MARK }]],
  ['a number for the form', [{ status: 'idle' }, 42]],
  ['one string only', [MARK]],
];

describe('dashboard server actions called with arguments no form sends', () => {
  it('the server log is read as soon as an answer arrives (the control: what the server logs is there by then)', async () => {
    const offset = fs.statSync(SERVER_LOG).size;
    const unknown = await callAction({ id: `00${'f'.repeat(40)}`, name: 'unknown', page: '/dashboard' }, '[]');
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(await logSince(offset)).toContain('Failed to find Server Action');
  });

  it('are all found in the build', () => {
    expect(dashboardActions().map((action) => action.name)).toEqual(
      expect.arrayContaining([
        'saveBusinessNameAction',
        'approveRefundAction',
        'createKeyAction',
        'createEndpointAction',
        'refundPaymentAction',
        'createPaymentLinkAction',
        'expireSessionAction',
      ]),
    );
  });

  it.each(dashboardActions().map((action) => ({ ...action, label: `${action.name} (${action.page})` })))(
    '$label answers the form’s refusal, changes nothing and logs nothing',
    async (action) => {
      const offset = fs.statSync(SERVER_LOG).size;
      const before = await merchantState([shop.merchantId]);
      for (const [what, args] of WRONG_ARGUMENTS) {
        const response = await callAction(action, JSON.stringify(args));
        expect(response.status, what).toBe(200);
        expect(response.text, what).toContain('This form could not be read');
        // a thrown action leaves its digest in the answer
        expect(response.text, what).not.toMatch(/E\{"digest"/);
      }
      expect(changedTables(before, await merchantState([shop.merchantId]))).toEqual([]);
      const log = await logSince(offset);
      expect(log).not.toContain(MARK);
      expect(log).not.toMatch(/TypeError|RangeError|⨯/);
    },
  );

  it('still do their work for the form the page sends (the control: these calls reach the action)', async () => {
    const save = dashboardActions().find((action) => action.name === 'saveBusinessNameAction')!;
    // React's encoding of (previous state, FormData): the arguments in field 0, the form's fields after
    const form = new FormData();
    form.append('_1_name', 'Renamed over HTTP');
    form.append('0', JSON.stringify([{ status: 'idle' }, '$K1']));
    const response = await callAction(save, form);
    expect(response.status).toBe(200);
    expect(response.text).toContain('"status":"ok"');
    expect((await (await db()).merchant.findUniqueOrThrow({ where: { id: shop.merchantId } })).name).toBe(
      'Renamed over HTTP',
    );
  });
});

describe('public server actions (no sign-in) called with arguments no page sends', () => {
  /** The actions anyone can call: the hosted checkout's Pay, a payment link's Pay, sign-up. */
  const PUBLIC = [
    {
      name: 'payCheckout',
      page: '/checkout/cs_000000000000000000000000',
      refusal: 'Something went wrong on our side and nothing was paid',
    },
    { name: 'payThroughLink', page: '/pay/pl_000000000000000000000000', refusal: 'This form could not be read' },
    { name: 'signUpAction', page: '/signup', refusal: 'This form could not be read' },
  ];
  const manifest = () =>
    JSON.parse(
      fs.readFileSync(
        path.join(process.env.NEXT_DIST_DIR || '.next', 'server', 'server-reference-manifest.json'),
        'utf8',
      ),
    );

  it.each(PUBLIC)(
    '$name answers its page’s own refusal, writes nothing and logs nothing',
    async ({ name, page, refusal }) => {
      const [id] = Object.entries(manifest().node as Record<string, { exportedName: string }>).find(
        ([, action]) => action.exportedName === name,
      )!;
      const offset = fs.statSync(SERVER_LOG).size;
      const client = await db();
      const before = {
        merchants: await client.merchant.count(),
        sessions: await client.checkoutSession.count(),
        payments: await client.payment.count(),
      };
      const card = {
        method: 'card',
        card: { number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: MARK },
      };
      for (const args of [
        [],
        [[MARK], card],
        [{ id: MARK }, card],
        [[MARK], { message: null }],
        [42],
        [MARK, MARK, MARK],
      ]) {
        const response = await fetch(`${base}${page}`, {
          method: 'POST',
          headers: {
            'Next-Action': id,
            'Content-Type': 'text/plain;charset=UTF-8',
            Accept: 'text/x-component',
            Origin: base,
          },
          body: JSON.stringify(args),
        });
        const text = await response.text();
        expect(response.status, JSON.stringify(args)).toBe(200);
        expect(text, JSON.stringify(args)).toContain(refusal);
      }
      expect({
        merchants: await client.merchant.count(),
        sessions: await client.checkoutSession.count(),
        payments: await client.payment.count(),
      }).toEqual(before);
      const log = await logSince(offset);
      expect(log).not.toContain(MARK);
      expect(log).not.toMatch(/TypeError|RangeError|⨯/);
    },
  );
});

describe('the hosted checkout’s Pay checks the card again on the server', () => {
  it('says an expiry month of 13 is invalid, and pays nothing', async () => {
    const api = apiClient((await createTestMerchant()).key, base);
    const session = (await api.post('/v1/checkout-sessions', sessionBody())).body;
    const manifest = JSON.parse(
      fs.readFileSync(
        path.join(process.env.NEXT_DIST_DIR || '.next', 'server', 'server-reference-manifest.json'),
        'utf8',
      ),
    );
    const [id] = Object.entries(manifest.node as Record<string, { exportedName: string }>).find(
      ([, action]) => action.exportedName === 'payCheckout',
    )!;
    // what a browser whose own check was skipped would send
    const card = {
      method: 'card',
      email: '',
      card: { number: '4242 4242 4242 4242', expiry: '13 / 30', cvc: '123', name: 'Ada Lovelace' },
    };
    const response = await fetch(`${base}/checkout/${session.id}`, {
      method: 'POST',
      headers: {
        'Next-Action': id,
        'Content-Type': 'text/plain;charset=UTF-8',
        Accept: 'text/x-component',
        Origin: base,
      },
      body: JSON.stringify([session.id, card]),
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).toContain('"kind":"invalid"');
    expect(text).toContain(EXPIRY_MONTH_INVALID);
    expect(await (await db()).payment.count({ where: { checkoutSessionId: session.id } })).toBe(0);
  });
});

describe('server actions called with deeply nested arguments', () => {
  const nested = (levels: number) => `[${'['.repeat(levels)}${']'.repeat(levels)}]`;

  it.each([
    ['5,000 levels, as the body', 400, nested(5_000)],
    [
      '5,000 levels, in a form field',
      400,
      (() => {
        const form = new FormData();
        form.append('0', nested(5_000));
        return form;
      })(),
    ],
    ['200,000 levels (and 400 KB)', 413, nested(200_000)],
  ] as const)('%s: refused with %i before React parses them, not a 500', async (_what, status, body) => {
    const offset = fs.statSync(SERVER_LOG).size;
    const before = await merchantState([shop.merchantId]);
    const save = dashboardActions().find((action) => action.name === 'saveBusinessNameAction')!;
    const response = await callAction(save, body);
    expect(response.status).toBe(status);
    expect(changedTables(before, await merchantState([shop.merchantId]))).toEqual([]);
    expect(await logSince(offset)).not.toMatch(/RangeError|⨯/);
  });

  it('the checkout page’s action too: the guard is in front of every page, whoever owns the action', async () => {
    const manifest = JSON.parse(
      fs.readFileSync(
        path.join(process.env.NEXT_DIST_DIR || '.next', 'server', 'server-reference-manifest.json'),
        'utf8',
      ),
    );
    const [id] = Object.entries(manifest.node as Record<string, { exportedName: string }>).find(
      ([, action]) => action.exportedName === 'payCheckout',
    )!;
    const response = await fetch(`${base}/checkout/cs_000000000000000000000000`, {
      method: 'POST',
      headers: {
        'Next-Action': id,
        'Content-Type': 'text/plain;charset=UTF-8',
        Accept: 'text/x-component',
        Origin: base,
      },
      body: nested(5_000),
    });
    expect(response.status).toBe(400);
  });
});

describe('every server action called with argument shapes React cannot revive', () => {
  // Twelve bodies no page of ours sends: arguments that are not a list, not JSON, and references to parts
  // of the request that were never sent (a Map, a Set, a promise, an outlined value, a Blob, a temporary
  // or server reference). React would throw while reviving them, before the action runs: a 500 and a stack
  // in the log. Each must be refused with a 4xx instead, signed in or not.
  const PROBES: [string, () => string | FormData][] = [
    ['a string', () => '"x"'],
    ['a Map never sent', () => '[{"status":"idle"},"$Q1"]'],
    ['a number', () => '42'],
    ['null', () => 'null'],
    ['an object', () => `{"0":"${MARK}"}`],
    ['not JSON', () => '[['],
    ['a promise never sent', () => '["$@1"]'],
    ['an outlined value never sent', () => '["$1"]'],
    ['a Set never sent', () => '[{"status":"idle"},"$W1"]'],
    ['a Blob never sent', () => '["$B1"]'],
    ['a temporary reference', () => `["$T", "${MARK}"]`],
    [
      'a form whose arguments name a Map never sent',
      () => {
        const form = new FormData();
        form.append('0', '[{"status":"idle"},"$Q1"]');
        return form;
      },
    ],
  ];

  const actionsWithPages = () => {
    const manifest = JSON.parse(
      fs.readFileSync(
        path.join(process.env.NEXT_DIST_DIR || '.next', 'server', 'server-reference-manifest.json'),
        'utf8',
      ),
    );
    const byName = new Map(
      Object.entries(manifest.node as Record<string, { exportedName: string }>).map(([id, action]) => [
        action.exportedName,
        id,
      ]),
    );
    return [
      ...dashboardActions().map((action) => ({ ...action, signedIn: true })),
      { id: byName.get('payCheckout')!, name: 'payCheckout', page: '/checkout/cs_000000000000000000000000' },
      { id: byName.get('payThroughLink')!, name: 'payThroughLink', page: '/pay/pl_000000000000000000000000' },
      { id: byName.get('signUpAction')!, name: 'signUpAction', page: '/signup' },
    ].map((action) => ({ signedIn: false, ...action, label: `${action.name} (${action.page})` }));
  };

  it.each(actionsWithPages())('$label refuses each with a 4xx and logs no stack', async (action) => {
    expect(action.id).toBeTruthy();
    const offset = fs.statSync(SERVER_LOG).size;
    const answers: string[] = [];
    for (const [what, body] of PROBES) {
      const sent = body();
      const response = await fetch(`${base}${action.page}`, {
        method: 'POST',
        headers: {
          ...(action.signedIn ? { Cookie: cookie } : {}),
          'Next-Action': action.id,
          Accept: 'text/x-component',
          Origin: base,
          ...(typeof sent === 'string' ? { 'Content-Type': 'text/plain;charset=UTF-8' } : {}),
        },
        body: sent,
        redirect: 'manual',
      });
      await response.text();
      answers.push(`${what}: ${response.status}`);
    }
    expect(answers).toEqual(PROBES.map(([what]) => `${what}: 400`));
    const log = await logSince(offset);
    expect(log).not.toContain(MARK);
    expect(log).not.toMatch(/TypeError|RangeError|SyntaxError|⨯|\n\s+at /);
  });
});
