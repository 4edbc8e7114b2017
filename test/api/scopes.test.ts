import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@/lib/api-keys/service';
import { SCOPES, type Scope } from '@/lib/api-keys/scopes';
import { db } from '@/lib/db';
import { API_OPERATIONS } from '@/lib/openapi/operations';
import { createFixtureMerchant, fixtureIdOf, send, type FixtureMerchant } from './properties-support';
import { contextOf } from '@/test/context';

// Every endpoint of the operations against a key holding exactly one scope, for every scope, and a key
// holding none (OWASP API5, broken function-level authorization). A key without the endpoint's scope gets
// 403 insufficient_scope naming the scope, before its body is even read; the endpoint's own scope gets
// past the check. One table, built from the same operations the OpenAPI document is built from, so a new
// endpoint is in it the day it is added.

let shop: FixtureMerchant;
const keyWith = new Map<Scope | 'none', string>();

beforeAll(async () => {
  shop = await createFixtureMerchant({ name: 'Scope Shop' });
  const client = await db();
  for (const scope of SCOPES) keyWith.set(scope, (await createApiKey(contextOf(client, shop.merchantId), [scope])).key);
  keyWith.set('none', (await createApiKey(contextOf(client, shop.merchantId), [])).key);
});

const operations = API_OPERATIONS.filter((op) => op.scope !== null);
const cases = operations.flatMap((op) =>
  [...SCOPES, 'none' as const].map((scope) => ({
    name: `${op.method} ${op.path}`,
    op,
    scope,
    own: scope === op.scope,
  })),
);

/** The request as a well-behaved client would send it, to an object of the key's own merchant. */
function requestFor(op: (typeof operations)[number], key: string, body: string | undefined) {
  const id = op.pathId ? fixtureIdOf(shop.ids, op.pathId) : '';
  return send({
    method: op.method,
    path: op.path.replace('{id}', id),
    headers: {
      Authorization: `Bearer ${key}`,
      ...(op.method === 'POST' ? { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() } : {}),
    },
    body: op.method === 'POST' ? body : undefined,
  });
}

describe('every endpoint × every scope', () => {
  it.each(cases)('$name with a key holding only $scope', async ({ op, scope, own }) => {
    const key = keyWith.get(scope)!;
    const res = await requestFor(op, key, JSON.stringify(op.body?.example ?? {}));
    if (own) {
      // past the scope check: whatever the request's fate, it is not an authentication or scope refusal
      expect([401, 403], JSON.stringify(res.json)).not.toContain(res.status);
      expect(res.status).toBeLessThan(500);
    } else {
      expect(res.status, JSON.stringify(res.json)).toBe(403);
      expect(res.json.error).toMatchObject({ type: 'permission_error', code: 'insufficient_scope' });
      expect(res.json.error.message).toContain(op.scope);
    }
  });
});

describe('the scope is checked before the body (/docs#errors order)', () => {
  it.each(operations.filter((op) => op.method === 'POST').map((op) => ({ name: `${op.method} ${op.path}`, op })))(
    '$name: a wrong scope with a broken body is still 403',
    async ({ op }) => {
      const wrong = SCOPES.find((scope) => scope !== op.scope)!;
      const res = await requestFor(op, keyWith.get(wrong)!, '{"broken":');
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe('insufficient_scope');
    },
  );
});

it('the table covers every endpoint that needs a key and every scope', () => {
  expect(new Set(cases.map((c) => c.name)).size).toBe(operations.length);
  expect(operations.length).toBeGreaterThanOrEqual(21);
  expect(new Set(operations.map((op) => op.scope))).toEqual(new Set(SCOPES));
});
